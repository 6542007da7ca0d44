// @ts-check
// Parses pieces of a CSV or NDJSON file on another core (pieceTask.ts, compiled, at `taskUrl`):
// each piece starts and ends at a record boundary, so workers parse pieces of one file side by side.
// A worker serves one file at a time and then the next (pieceWorkerPool.ts): each file's task
// comes first, as a message of its own. Plain JavaScript so that Node loads it as a worker both
// from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('pieceWorker runs as a worker thread');
const port = parentPort;
/** @type {{ taskUrl: string }} */
const { taskUrl } = workerData;
const { createPieceTask } = await import(taskUrl);
/** @type {((bytes: Buffer) => object) | undefined} */
let task;

port.on('message', (/** @type {{ task: object } | { seq: number, chunk: ArrayBuffer }} */ message) => {
  if ('task' in message) {
    task = createPieceTask(message.task);
    return;
  }
  if (!task) throw new Error('a piece came before its task');
  port.postMessage({ seq: message.seq, ...task(Buffer.from(message.chunk)) });
});

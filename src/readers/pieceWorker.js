// @ts-check
// Parses pieces of a CSV or NDJSON file on another core (pieceTask.ts, compiled, at `taskUrl`):
// each piece starts and ends at a record boundary, so workers parse pieces of one file side by side.
// Plain JavaScript so that Node loads it as a worker both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('pieceWorker runs as a worker thread');
const port = parentPort;
/** @type {{ taskUrl: string, options: object }} */
const { taskUrl, options } = workerData;
const { createPieceTask } = await import(taskUrl);
const task = createPieceTask(options);

port.on('message', (/** @type {{ seq: number, chunk: ArrayBuffer }} */ message) => {
  port.postMessage({ seq: message.seq, ...task(Buffer.from(message.chunk)) });
});

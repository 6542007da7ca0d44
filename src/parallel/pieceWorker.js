// @ts-check
// Reads pieces of a file of any input format on another core (pieceTask.ts, compiled, at `taskUrl`):
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
/** @typedef {(bytes: Buffer, last: boolean) => object | Promise<object>} Task */
/** @type {Task | Promise<Task> | undefined} a promise while the task's code loads (a mapped file's) */
let task;

port.on(
  'message',
  (/** @type {{ task: object } | { seq: number, chunk: ArrayBuffer, last: boolean }} */ message) => {
    if ('task' in message) {
      task = createPieceTask(message.task);
      return;
    }
    if (!task) throw new Error('a piece came before its task');
    const { seq, chunk, last } = message;
    const post = (/** @type {object} */ answered) => port.postMessage({ seq, ...answered });
    const answer = (/** @type {Task} */ run) => {
      const answered = run(Buffer.from(chunk), last);
      // A task that reads its piece (a Parquet row group) answers later.
      if (answered instanceof Promise) void answered.then(post);
      else post(answered);
    };
    // A task that failed to load or to read throws here, unhandled: the worker stops with that error, as when a piece fails.
    if (task instanceof Promise) void task.then(answer);
    else answer(task);
  },
);

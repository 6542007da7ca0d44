// @ts-check
// A piece worker's loop (pieceWorker.js): each file's task comes first, as a message of its own,
// then its pieces, each answered with its `seq`. Apart from pieceWorker.js so that the single
// binary (docs/binary.md) runs the same loop with the task module bundled in, not imported from a file.

/** @typedef {(bytes: Buffer, last: boolean) => object | Promise<object>} Task */

/**
 * Serves pieces on `port` with the tasks `createPieceTask` makes.
 * @param {import('node:worker_threads').MessagePort} port
 * @param {(options: object) => Task | Promise<Task>} createPieceTask
 */
export function servePieces(port, createPieceTask) {
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
      // A task that failed to load or to read throws here, unhandled: the worker stops with that error, as
      // when a piece fails.
      if (task instanceof Promise) void task.then(answer);
      else answer(task);
    },
  );
}

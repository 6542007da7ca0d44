// @ts-check
// Copies a state's WAL into its database file on a second thread, so that the sending thread's
// commits never wait for a checkpoint's writes and fsyncs (see walCheckpoint.ts).
// Plain JavaScript so that Node loads it as a worker both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('walCheckpointWorker runs as a worker thread');
const port = parentPort;
/** @type {{ path: string; everyMs: number }} */
const { path, everyMs } = workerData;
const db = new Database(path, { fileMustExist: true });

/** PASSIVE: never waits for the writer or a reader; copies what it can now, the rest on a later turn. */
function checkpoint() {
  const [row] = /** @type {{ busy: number; log: number; checkpointed: number }[]} */ (db.pragma('wal_checkpoint(PASSIVE)'));
  if (row && row.checkpointed > 0) port.postMessage({ log: row.log, checkpointed: row.checkpointed });
}

const timer = setInterval(() => {
  try {
    checkpoint();
  } catch (cause) {
    // Locked or failing: the writer's own checkpoints take over (walCheckpoint.ts).
    clearInterval(timer);
    port.postMessage({ error: String(cause) });
  }
}, everyMs);

port.on('message', () => {
  clearInterval(timer);
  db.close();
  port.close();
});

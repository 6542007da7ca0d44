// @ts-check
// Writes a dry run's validated records into its state on a second thread (backgroundWriter.ts):
// each message is one batch of writes, committed in one transaction. Plain JavaScript so that
// Node loads it as a worker both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('stateWriterWorker runs as a worker thread');
const port = parentPort;
/** @type {{ path: string; statements: { sql: string; arity: number; hashAt?: number }[]; shared: SharedArrayBuffer; errors: import('node:worker_threads').MessagePort }} */
const { path, statements, shared, errors } = workerData;
/** [0] batches committed, [1] 1 once a batch failed, [2] 1 once the connection is closed. */
const flags = new Int32Array(shared);
/** A content hash as stored: the bytes of a lowercase hex hash, any other text as it is (compactRows.ts hashBlob). */
const HEX_HASH = /^(?:[0-9a-f]{2})+$/;
const hashBlob = (/** @type {unknown} */ hash) => (typeof hash === 'string' && HEX_HASH.test(hash) ? Buffer.from(hash, 'hex') : hash);

/** @type {Database.Database | undefined} */
let db;
/** @type {((ops: unknown[]) => void) | undefined} */
let apply;

function open() {
  db = new Database(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -16384');
  const prepared = statements.map((s) => ({ statement: /** @type {Database.Database} */ (db).prepare(s.sql), params: new Array(s.arity), hashAt: s.hashAt ?? -1 }));
  // The batch is a flat list: a statement's position, then its parameters, and so on.
  apply = db.transaction((/** @type {unknown[]} */ ops) => {
    for (let i = 0; i < ops.length;) {
      const write = /** @type {(typeof prepared)[number]} */ (prepared[/** @type {number} */ (ops[i++])]);
      const { params } = write;
      for (let k = 0; k < params.length; k++) params[k] = ops[i++];
      if (write.hashAt >= 0) params[write.hashAt] = hashBlob(params[write.hashAt]);
      write.statement.run(params);
    }
  });
}

function fail(/** @type {unknown} */ cause) {
  const error = /** @type {{ message?: unknown; code?: unknown }} */ (cause ?? {});
  errors.postMessage({ message: String(error.message ?? cause), code: typeof error.code === 'string' ? error.code : undefined });
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 0);
}

function close() {
  try {
    db?.close();
  } catch (cause) {
    if (Atomics.load(flags, 1) === 0) fail(cause);
  }
  Atomics.store(flags, 2, 1);
  Atomics.notify(flags, 0);
  port.close();
  errors.close();
}

port.on('message', (/** @type {{ ops: unknown[] } | 'close'} */ message) => {
  if (message === 'close') return close();
  if (Atomics.load(flags, 1) === 1) return; // failed: the main thread has been told, nothing more is written
  try {
    if (!apply) open();
    /** @type {(ops: unknown[]) => void} */ (apply)(message.ops);
    Atomics.add(flags, 0, 1);
    Atomics.notify(flags, 0);
  } catch (cause) {
    fail(cause);
  }
});

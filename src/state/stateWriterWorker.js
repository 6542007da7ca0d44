// @ts-check
// Writes a dry run's validated records into its state on a second thread (backgroundWriter.ts):
// each message is one batch of writes, committed in one transaction. Plain JavaScript so that
// Node loads it as a worker both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('stateWriterWorker runs as a worker thread');
const port = parentPort;
/** @type {{ path: string; statements: { sql: string; tail?: string; arity: number; keyAt: number; hashAt?: number; insert?: boolean }[]; shared: SharedArrayBuffer; errors: import('node:worker_threads').MessagePort }} */
const { path, statements, shared, errors } = workerData;
/** [0] batches committed, [1] 1 once a batch failed, [2] 1 once the connection is closed, [3] a count of statements run (a sign of life). */
const flags = new Int32Array(shared);
/** A content hash as stored: the bytes of a lowercase hex hash, any other text as it is (compactRows.ts hashBlob). */
const HEX_HASH = /^(?:[0-9a-f]{2})+$/;
const hashBlob = (/** @type {unknown} */ hash) => (typeof hash === 'string' && HEX_HASH.test(hash) ? Buffer.from(hash, 'hex') : hash);

/** Rows per multi-row INSERT. */
const ROWS = 100;

/** @type {Database.Database | undefined} */
let db;
/** @type {((ops: unknown[]) => void) | undefined} */
let apply;

/** A statement of writeSql (stateWriteSql.ts) prepared, with the rows of the batch it waits to insert. */
function prepareWrite(/** @type {Database.Database} */ connection, /** @type {{ sql: string; tail?: string; arity: number; keyAt: number; hashAt?: number; insert?: boolean }} */ s) {
  const row = `, (${new Array(s.arity).fill('?').join(', ')})`;
  return {
    arity: s.arity, hashAt: s.hashAt ?? -1, insert: s.insert === true, keyAt: s.keyAt,
    one: connection.prepare(s.sql + (s.tail ?? '')),
    many: s.insert ? connection.prepare(s.sql + row.repeat(ROWS - 1) + (s.tail ?? '')) : undefined,
  };
}

function open() {
  const connection = new Database(path, { fileMustExist: true });
  db = connection;
  connection.pragma('busy_timeout = 5000');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('cache_size = -16384');
  const writes = statements.map((s) => prepareWrite(connection, s));
  // The batch is a flat list: a statement's position, then its parameters, and so on. Its rows go
  // in by table, creations' rows before updates (a run lists an order's creation before its updates);
  // each table's rows sorted by key, stably (rows of one key keep the batch's order): inserts and
  // updates then walk the table's B-tree in order, where a run's orders come in no order.
  apply = connection.transaction((/** @type {unknown[]} */ ops) => {
    /** @type {unknown[][]} each write's rows, one array per row */
    const rows = writes.map(() => []);
    for (let i = 0; i < ops.length;) {
      const at = /** @type {number} */ (ops[i++]);
      const arity = /** @type {(typeof writes)[number]} */ (writes[at]).arity;
      /** @type {unknown[]} */ (rows[at]).push(ops.slice(i, i + arity));
      i += arity;
    }
    for (const insert of [true, false]) {
      writes.forEach((write, at) => {
        if (write.insert === insert) run(write, /** @type {unknown[][]} */ (rows[at]));
      });
    }
  });
}

/** Runs one write for its rows of a batch, sorted by key; many rows per statement when it is an insert. */
function run(/** @type {ReturnType<typeof prepareWrite>} */ write, /** @type {unknown[][]} */ rows) {
  const key = write.keyAt;
  rows.sort((a, b) => {
    const x = /** @type {string} */ (a[key]);
    const y = /** @type {string} */ (b[key]);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  if (write.hashAt >= 0) for (const row of rows) row[write.hashAt] = hashBlob(row[write.hashAt]);
  let i = 0;
  if (write.many) {
    for (; i + ROWS <= rows.length; i += ROWS) {
      write.many.run(rows.slice(i, i + ROWS).flat());
      Atomics.add(flags, 3, 1);
    }
  }
  for (; i < rows.length; i++) write.one.run(rows[i]);
  Atomics.add(flags, 3, 1);
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
  Atomics.notify(flags, 2);
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

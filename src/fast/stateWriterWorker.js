// @ts-check
// Commits a dry run's state writes on a thread of their own (stateWriterThread.ts): each message is
// one batch, a flat list of [statement, parameters...], run in one transaction. Plain JavaScript so
// that Node loads it as a worker both from src/ (tests) and dist/.
import { accessSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from '../platform/nodeSqlite.js';

if (!parentPort) throw new Error('stateWriterWorker runs as a worker thread');
const port = parentPort;
/** @type {{ path: string; shared: SharedArrayBuffer; errors: import('node:worker_threads').MessagePort }} */
const { path, shared, errors } = workerData;
/** [0] batches committed, [1] 1 once a batch failed, [2] 1 once closed, [3] statements run (a sign of life). */
const flags = new Int32Array(shared);

/** @returns {import('node:sqlite').DatabaseSync} */
function open() {
  accessSync(path); // the state made it, with its tables: opening must not create an empty one
  const connection = new DatabaseSync(path);
  connection.exec('PRAGMA busy_timeout = 5000');
  connection.exec('PRAGMA synchronous = NORMAL');
  connection.exec('PRAGMA cache_size = -16384');
  return connection;
}
/** Rows per multi-row INSERT. */
const ROWS = 100;
/** A content hash as stored: the bytes of a lowercase hex hash, any other text as it is (compactRows.ts hashBlob). */
const HEX_HASH = /^(?:[0-9a-f]{2})+$/;
const hashBlob = (/** @type {unknown} */ hash) =>
  typeof hash === 'string' && HEX_HASH.test(hash) ? Buffer.from(hash, 'hex') : hash;

/**
 * @typedef {{ one: import('node:sqlite').StatementSync; many: import('node:sqlite').StatementSync |
 * undefined; arity: number; hashAt: number; table: string }} Write
 * @type {Write[]} prepared in the order the main thread lists them
 */
const statements = [];

/** A statement prepared, with its table and, for an INSERT, a form that inserts ROWS rows at once. */
function prepare(
  /** @type {import('node:sqlite').DatabaseSync} */ connection,
  /** @type {string} */ text,
  /** @type {number} */ arity,
  /** @type {number} */ hashAt,
) {
  const table = /^(?:INSERT(?: OR \w+)? INTO|UPDATE)\s+(\w+)/i.exec(text)?.[1] ?? text;
  const values = /VALUES (\([?, ]+\))/.exec(text);
  const many =
    values && arity > 0
      ? text.replace(values[0], `VALUES ${Array(ROWS).fill(values[1]).join(', ')}`)
      : undefined;
  return {
    one: connection.prepare(text),
    many: many === undefined ? undefined : connection.prepare(many),
    arity,
    hashAt,
    table,
  };
}

/**
 * @type {import('node:sqlite').DatabaseSync | undefined} opened with the first batch: a failure is told as
 * the batch's
 */
let db;
/** @type {Record<'begin' | 'commit' | 'rollback', import('node:sqlite').StatementSync> | undefined} */
let control;

/** Runs a batch in one transaction (node:sqlite has no transaction helper): committed, or rolled back when it fails. */
function apply(/** @type {import('node:sqlite').DatabaseSync} */ connection, /** @type {unknown[]} */ ops) {
  control ??= {
    begin: connection.prepare('BEGIN'),
    commit: connection.prepare('COMMIT'),
    rollback: connection.prepare('ROLLBACK'),
  };
  control.begin.run();
  try {
    runAll(ops);
    control.commit.run();
  } catch (cause) {
    try {
      control.rollback.run();
    } catch {
      // No transaction left: SQLite ended it itself (a full disk, an I/O error).
    }
    throw cause;
  }
}

/**
 * Runs a batch table by table, each table's writes in the batch's order: writes to different tables
 * commute, so this is the batch run in order. Consecutive rows of one INSERT go in ROWS at a time.
 */
const runAll = (/** @type {unknown[]} */ ops) => {
  /** @type {Map<string, number[]>} each table's writes, by their place in ops */
  const byTable = new Map();
  for (let i = 0; i < ops.length;) {
    const write = /** @type {Write} */ (statements[/** @type {number} */ (ops[i])]);
    const places = byTable.get(write.table);
    if (places) places.push(i);
    else byTable.set(write.table, [i]);
    i += 1 + write.arity;
  }
  for (const places of byTable.values()) {
    for (let p = 0; p < places.length;) {
      const at = /** @type {number} */ (places[p]);
      const write = /** @type {Write} */ (statements[/** @type {number} */ (ops[at])]);
      let same = p + 1;
      while (same < places.length && same - p < ROWS && ops[/** @type {number} */ (places[same])] === ops[at])
        same++;
      if (write.many && same - p === ROWS) {
        const params = [];
        for (let q = p; q < same; q++) {
          const from = /** @type {number} */ (places[q]) + 1;
          for (let k = 0; k < write.arity; k++)
            params.push(k === write.hashAt ? hashBlob(ops[from + k]) : ops[from + k]);
        }
        write.many.run(.../** @type {import('node:sqlite').SQLInputValue[]} */ (params));
        p = same;
      } else {
        const params = ops.slice(at + 1, at + 1 + write.arity);
        if (write.hashAt >= 0) params[write.hashAt] = hashBlob(params[write.hashAt]);
        write.one.run(.../** @type {import('node:sqlite').SQLInputValue[]} */ (params));
        p += 1;
      }
    }
  }
};

function fail(/** @type {unknown} */ cause) {
  const error = /** @type {{ message?: unknown; code?: unknown; errcode?: unknown }} */ (cause ?? {});
  const code = typeof error.code === 'string' ? error.code : undefined;
  const errcode = typeof error.errcode === 'number' ? error.errcode : undefined;
  errors.postMessage({ message: String(error.message ?? cause), code, errcode });
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 0);
}

port.on(
  'message',
  (
    /** @type {{ sql: { text: string; arity: number; hashAt: number }[]; ops: unknown[] } | 'close'} */ message,
  ) => {
    if (message === 'close') {
      try {
        db?.close();
      } catch (cause) {
        if (Atomics.load(flags, 1) === 0) fail(cause);
      }
      Atomics.store(flags, 2, 1);
      Atomics.notify(flags, 2);
      port.close();
      errors.close();
      return;
    }
    if (Atomics.load(flags, 1) === 1) return; // failed: the main thread was told, nothing more is written
    try {
      db ??= open();
      for (const { text, arity, hashAt } of message.sql) statements.push(prepare(db, text, arity, hashAt));
      apply(db, message.ops);
      Atomics.add(flags, 3, message.ops.length);
      Atomics.add(flags, 0, 1);
      Atomics.notify(flags, 0);
    } catch (cause) {
      fail(cause);
    }
  },
);

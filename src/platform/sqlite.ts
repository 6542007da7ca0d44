import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// better-sqlite3 12 aborts Node 24.19+ when a statement is collected (node::ObjectWrap's cleanup
// hooks; WiseLibs/better-sqlite3#1515), and 13's binary needs Node-API 10, which Node 20 lacks:
// each Node gets the major that runs on it. Both expose the same API (@types/better-sqlite3).
const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);
/** The package this Node loads: a worker thread that opens the state loads the same (fast/stateWriterWorker.js). */
export const sqlitePackage = nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-v12';
const Database = require(sqlitePackage) as typeof BetterSqlite3;

// The types travel with the value, so `Database.Database` and `Database.Statement` read as before.
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace Database {
  export type Database = BetterSqlite3.Database;
  export type Statement<
    Params extends unknown[] | object = unknown[],
    Result = unknown,
  > = BetterSqlite3.Statement<Params, Result>;
  export type SqliteError = BetterSqlite3.SqliteError;
}

export default Database;

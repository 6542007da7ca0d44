import { existsSync } from 'node:fs';
import type { Resource } from '../resources/resource.js';
import { join } from 'node:path';
import { declaredTables } from './declared.js';
import { RunScratch } from './runScratch.js';
import type { RunState, Shard } from './runState.js';
import { SqliteState } from './sqlite/sqliteState.js';

/** A `--state` that names a PostgreSQL database rather than a folder. */
export const isPostgresUrl = (spec: string | null): spec is string =>
  spec !== null && /^postgres(ql)?:\/\//i.test(spec);

/**
 * The folder of a run's throwaway files that outlive the run itself (the report's spilled issues,
 * read back once it is written): beside a state folder the run writes (its next run sweeps a killed
 * one's), else in `tempDir` (no state, a read-only run, a PostgreSQL state), as RunState.scratch says.
 */
export function scratchOf(spec: string | null, readOnly: boolean, tempDir: string): RunScratch {
  return spec === null || readOnly || isPostgresUrl(spec)
    ? RunScratch.inTemp(tempDir)
    : RunScratch.in(join(spec, 'tmp'));
}

/** How a run opens its state. */
export interface OpenOptions {
  shard?: Shard;
  /** The run takes the lock before it reads anything. */
  locking: boolean;
  /** The run only reads: a state that is not there is not created. */
  readOnly?: boolean;
  /** The run's resources: the tables they declare are kept too (those of the registry always are). */
  resources?: readonly Resource[];
}

/**
 * Opens the state a run names: a folder of SQLite files (the embedded default), a `postgres://`
 * URL, or none (null: in memory). What is backend-specific stays behind RunState.
 */
export async function openState(
  spec: string | null,
  baseUrl: string | undefined,
  options: OpenOptions,
): Promise<RunState> {
  const tables = declaredTables(options.resources);
  if (isPostgresUrl(spec)) {
    // pg is loaded only for a PostgreSQL state.
    const { PostgresState } = await import('./postgres/postgresState.js');
    return PostgresState.connect(spec, baseUrl, {
      ...(options.shard ? { shard: options.shard } : {}),
      loadNow: !options.locking,
      tables,
    });
  }
  const readOnly = options.readOnly === true;
  // A run that only reads creates nothing: a state that is not there knows nothing.
  if (readOnly && spec !== null && !existsSync(SqliteState.fileOf(spec, baseUrl)))
    return SqliteState.open(null, baseUrl, { tables, readOnly });
  return SqliteState.open(spec, baseUrl, { tables, readOnly });
}

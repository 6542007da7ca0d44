import { existsSync } from 'node:fs';
import type { Shard } from './stateLock.js';
import { StateStore } from './stateStore.js';

/** A `--state` that names a PostgreSQL database rather than a folder. */
export const isPostgresUrl = (spec: string | null): spec is string => spec !== null && /^postgres(ql)?:\/\//i.test(spec);

/**
 * Opens the state a run names: a folder of SQLite files (the embedded default), a `postgres://`
 * URL, or none (null: in memory). `locking`: the run takes the lock before it reads anything.
 */
export async function openState(spec: string | null, baseUrl: string | undefined, options: { shard?: Shard; locking: boolean; readOnly?: boolean }): Promise<StateStore> {
  // pg is loaded only for a PostgreSQL state.
  if (isPostgresUrl(spec)) return (await import('./postgres/postgresStateStore.js')).PostgresStateStore.connect(spec, baseUrl, { ...(options.shard ? { shard: options.shard } : {}), loadNow: !options.locking });
  // A run that only reads creates nothing: a state that is not there knows nothing.
  if (options.readOnly === true && spec !== null && !existsSync(StateStore.fileOf(spec, baseUrl))) return StateStore.open(null, baseUrl);
  return StateStore.open(spec, baseUrl);
}

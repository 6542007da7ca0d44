/**
 * A state written by the release before node:sqlite (collect 0.1.0 on better-sqlite3 13, Node 24) opens
 * and goes on with this build: same file, same format. test/data/state-0.1.0.sqlite was made by that
 * release (commit 12be444): `collect backfill fixtures/history --base-url URL --state DIR` against its
 * sandbox, then `collect decisions` of two rows (H-EXT-1 reject, H-EXT-2 approve) into the same state.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberOnThread } from '../src/fast/threadedState.js';
import { openDatabase, pragmaValue } from '../src/platform/sqlite.js';
import { resources } from '../src/resources/registry.js';
import type { Facts } from '../src/resources/resource.js';
import { SqliteState } from '../src/state/sqlite/sqliteState.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const RELEASED = join(import.meta.dirname, 'data', 'state-0.1.0.sqlite');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A state folder holding the released file as the state of `url`. */
function releasedState(url: string): string {
  const dir = tempDir('collect-released-');
  copyFileSync(RELEASED, SqliteState.fileOf(dir, url));
  return dir;
}

describe('a state written by collect 0.1.0 (better-sqlite3)', () => {
  it('a backfill of the same history sends nothing: the journal read back says all was accepted', async () => {
    const sandbox = await testSandbox({
      slowMs: 300,
    });
    const state = releasedState(sandbox.url);
    const { code, stdout } = await runCli(
      ['backfill', 'fixtures/history', '--base-url', sandbox.url, '--state', state, '--format', 'json'],
      { env: { COLLECT_API_KEY: 'test-released-key' } },
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { summary: object }).summary).toMatchObject({
      records: 21,
      sent: 0,
      skipped: 21,
    });
  });

  it('its orders and decisions read back, and new writes land in it, the writer thread’s too', () => {
    const url = 'https://collect.example.com';
    const dir = releasedState(url);
    const state = SqliteState.open(dir, url);
    expect(state.priorOrder('ORD-1001')).toMatchObject({ created: true, evaluate: true });
    expect(state.priorOrder('ORD-1001')!.hash).toMatch(/^[0-9a-f]{40,}$/);
    expect(state.priorOrder('H-EXT-1')).toMatchObject({ created: false, decision: 'reject' });
    const order = (orderId: string, hash: string) => ({
      resource: resources.order,
      hash,
      outcome: 'accepted' as const,
      facts: { kind: 'order', orderId, key: orderId, evaluate: false, payments: [], claims: [] } as Facts,
    });
    state.remember([order('NEW-1', 'aa01')], new Date());
    const threaded = rememberOnThread(state);
    threaded.remember([order('NEW-2', 'aa02')], new Date());
    threaded.close();

    const again = SqliteState.open(dir, url);
    expect(again.priorOrder('NEW-1')).toMatchObject({ created: true, hash: 'aa01' });
    expect(again.priorOrder('NEW-2')).toMatchObject({ created: true, hash: 'aa02' });
    expect(again.journalOutcome('aa02')).toBe('accepted');
    again.close();
    const db = openDatabase(SqliteState.fileOf(dir, url), { readOnly: true });
    expect(pragmaValue(db, 'integrity_check')).toBe('ok');
    // What this build wrote is stored as the release stored it (a hash as bytes, a time as an integer).
    expect(
      db.prepare("SELECT typeof(hash) AS hash, typeof(at) AS at FROM journal WHERE hash = x'aa02'").get(),
    ).toEqual({ hash: 'blob', at: 'integer' });
    db.close();
  });
});

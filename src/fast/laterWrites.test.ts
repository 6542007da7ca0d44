import { describe, expect, it } from 'vitest';
import { arrays, openDatabase } from '../platform/sqlite.js';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import type { Remembered } from '../state/remembered.js';
import { SqliteState } from '../state/sqlite/sqliteState.js';
import { rememberOnThread } from './threadedState.js';
import { StateError } from '../state/stateErrors.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const now = new Date('2025-01-01T00:00:00Z');
const TABLES = ['orders', 'order_payments', 'order_deliveries', 'fraud_marks', 'journal', 'decisions'];

/** Every row of every table, in key order. */
function dump(file: string): Record<string, unknown[]> {
  const db = openDatabase(file, { readOnly: true });
  const rows = Object.fromEntries(
    TABLES.map((table) => [table, arrays(db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`)).all()]),
  );
  db.close();
  return rows;
}

/** A deterministic mix of a run's records: repeats, statuses before their creation, rejected marks. */
function records(batch: number, seed: number): Remembered[] {
  let x = seed;
  // xorshift32: every bit varies (an LCG's low bits repeat with a short period)
  const next = (n: number) => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) % n);
  return Array.from({ length: 700 }, (_, i): Remembered => {
    const id = `ORD-${next(400)}`;
    const hash = `${batch.toString(16).padStart(2, '0')}${i.toString(16).padStart(4, '0')}`;
    const kind = next(6);
    if (kind <= 1)
      return {
        resource: resources.order,
        hash,
        outcome: 'validated',
        facts: {
          kind: 'order',
          orderId: id,
          key: id,
          evaluate: kind === 0,
          payments: [{ id: `P-${id}`, acquirerId: `A${next(9)}` }],
          claims: [`D-${next(500)}`],
          ...(next(2) === 0 ? { status: 'pending' } : {}),
        } as Facts,
      };
    if (kind === 2)
      return {
        resource: resources.status,
        hash,
        outcome: 'validated',
        facts: { kind: 'status', orderId: id, key: id, status: `s${next(5)}` } as Facts,
      };
    if (kind === 3)
      return {
        resource: resources.payment,
        hash,
        outcome: 'validated',
        facts: {
          kind: 'payment',
          orderId: id,
          key: `P-${id}`,
          paymentId: `P-${id}`,
          acquirerId: `B${next(9)}`,
        } as Facts,
      };
    return {
      resource: resources.fraud,
      hash,
      outcome: kind === 4 ? 'validated' : 'rejected',
      facts: { kind: 'fraud', orderId: id, key: id, signalType: 'chargeback' } as Facts,
    };
  });
}

describe('the state writer thread (rememberOnThread) against its plain twin (remember at once)', () => {
  it('leaves the same rows, and every read in between sees the same as the plain twin', () => {
    const plain = SqliteState.open(tempDir('collect-plain-'));
    const file = SqliteState.open(tempDir('collect-fast-'));
    const fast = rememberOnThread(file);
    for (const state of [plain, fast]) state.remember(records(0, 7), now);
    for (let batch = 1; batch <= 4; batch++) {
      const list = records(batch, batch * 31);
      plain.remember(list, now);
      fast.remember(list, now);
      for (let id = 0; id < 400; id += 7) {
        expect(fast.priorOrder(`ORD-${id}`)).toEqual(plain.priorOrder(`ORD-${id}`));
        expect(fast.claimants(`D-${id}`)).toEqual(plain.claimants(`D-${id}`));
      }
      expect(fast.journalOutcome(list[5]!.hash)).toBe(plain.journalOutcome(list[5]!.hash));
    }
    const files = [plain.path!, file.path!];
    plain.close();
    fast.close();
    expect(dump(files[1]!)).toEqual(dump(files[0]!));
  });

  it('a failure of the writer comes out as a StateError naming the file, not an internal error', () => {
    const file = SqliteState.open(tempDir('collect-fail-'));
    const state = rememberOnThread(file);
    const other = openDatabase(file.path!);
    other.exec('DROP TABLE order_deliveries');
    other.close();
    state.remember(records(1, 3), now);
    let failure: unknown;
    try {
      state.close();
    } catch (cause) {
      failure = cause;
    }
    expect(failure).toBeInstanceOf(StateError);
    expect((failure as Error).message).toContain(file.path!);
  });
});

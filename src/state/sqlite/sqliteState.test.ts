import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, pragmaValue } from '../../platform/sqlite.js';
import { describe, expect, it } from 'vitest';
import { resources } from '../../resources/registry.js';
import type { Facts } from '../../resources/resource.js';
import { migrations } from './migrations.js';
import { SqliteState } from './sqliteState.js';
import { namespaceOf } from '../remembered.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const dir = () => tempDir('collect-store-');
const now = new Date('2025-01-01T00:00:00Z');

describe('SqliteState', () => {
  it("finds the payments of acquirer ids: a payment update's id over the creation's", async () => {
    const store = SqliteState.open(null);
    const order = (orderId: string, payments: { id: string; acquirerId?: string }[]) => ({
      resource: resources.order,
      hash: `h-${orderId}`,
      outcome: 'accepted' as const,
      facts: { kind: 'order', orderId, key: orderId, evaluate: false, payments, claims: [] } as Facts,
    });
    store.remember(
      [
        order('A', [{ id: 'P1', acquirerId: 'X' }, { id: 'P2' }]),
        order('B', [{ id: 'P3', acquirerId: 'OLD' }]),
        order('C', [{ id: 'P4', acquirerId: 'X' }]),
        {
          resource: resources.payment,
          hash: 'h-pay',
          outcome: 'accepted',
          facts: { kind: 'payment', orderId: 'B', key: 'P3', paymentId: 'P3', acquirerId: 'NEW' } as Facts,
        },
      ],
      now,
    );
    const found = await store.acquirerOwners(new Set(['X', 'NEW', 'OLD', 'NONE']));
    expect(found.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual([
      { acquirerId: 'X', orderId: 'A', paymentId: 'P1' },
      { acquirerId: 'NEW', orderId: 'B', paymentId: 'P3' },
      { acquirerId: 'X', orderId: 'C', paymentId: 'P4' },
    ]);
    expect(await store.acquirerOwners(new Set())).toEqual([]);
    store.close();
  });

  it('remembers orders with payments and deliveries, statuses, fraud marks and decisions, across openings', () => {
    const folder = dir();
    const store = SqliteState.open(folder);
    expect(store.hasOrders).toBe(false);
    store.remember(
      [
        {
          resource: resources.order,
          hash: 'h1',
          outcome: 'validated',
          facts: {
            kind: 'order',
            orderId: 'A',
            key: 'A',
            evaluate: true,
            payments: [{ id: 'P1', acquirerId: 'X' }, { id: 'P2' }],
            claims: ['D1'],
          } as Facts,
        },
        {
          resource: resources.status,
          hash: 'h2',
          outcome: 'validated',
          facts: { kind: 'status', orderId: 'A', key: 'A', status: 'approved' } as Facts,
        },
        {
          resource: resources.fraud,
          hash: 'h3',
          outcome: 'validated',
          facts: { kind: 'fraud', orderId: 'A', key: 'A', signalType: 'chargeback' } as Facts,
        },
        {
          resource: resources.payment,
          hash: 'h4',
          outcome: 'validated',
          facts: { kind: 'payment', orderId: 'A', key: 'P2', paymentId: 'P2', acquirerId: 'Y' } as Facts,
        },
      ],
      now,
    );
    store.rememberDecision('A', 'reject');
    store.close();
    const reopened = SqliteState.open(folder);
    expect(reopened.hasOrders).toBe(true);
    expect(reopened.priorOrder('A')).toEqual({
      created: true,
      hash: 'h1',
      evaluate: true,
      decision: 'reject',
      lastStatus: 'approved',
      payments: { P1: 'X', P2: null },
      deliveryIds: ['D1'],
      fraudTypes: ['chargeback'],
    });
    expect(reopened.priorOrder('B')).toBeNull();
    expect(reopened.claimants('D1')).toEqual(['A']);
    expect(reopened.journalOutcome('h2')).toBe('validated');
    expect(reopened.journalOutcome('nope')).toBeUndefined();
    reopened.close();
  });
  it('keeps one file per service base URL, and its own for dry runs without one', () => {
    const folder = dir();
    SqliteState.open(folder).close();
    SqliteState.open(folder, 'https://a.example.test/').close();
    SqliteState.open(folder, 'https://A.example.test').close();
    SqliteState.open(folder, 'https://b.example.test').close();
    expect(
      readdirSync(folder)
        .filter((f) => f.endsWith('.sqlite'))
        .sort(),
    ).toEqual(
      [
        'dry-run.sqlite',
        `${namespaceOf('https://a.example.test')}.sqlite`,
        `${namespaceOf('https://b.example.test')}.sqlite`,
      ].sort(),
    );
  });
  it('uses WAL and records its schema version, refusing a newer one', () => {
    const folder = dir();
    SqliteState.open(folder).close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    expect(pragmaValue(db, 'journal_mode')).toBe('wal');
    expect(pragmaValue(db, 'user_version')).toBe(migrations.length);
    db.exec(`PRAGMA user_version = ${migrations.length + 1}`);
    db.close();
    expect(() => SqliteState.open(folder)).toThrow(/newer collect/);
  });
  it('brings a state written by an older collect up to date', () => {
    const folder = dir();
    const old = openDatabase(join(folder, 'dry-run.sqlite'));
    old.exec(migrations[0]!);
    old.exec('PRAGMA user_version = 1');
    old.prepare("INSERT INTO orders (order_id, hash, evaluate) VALUES ('A', 'h', 0)").run();
    old.close();
    const store = SqliteState.open(folder);
    expect(store.priorOrder('A')).toMatchObject({ created: true, hash: 'h' });
    store.close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    expect(pragmaValue(db, 'user_version')).toBe(migrations.length);
    expect(db.prepare("SELECT name FROM pragma_table_info('order_payments')").all()).toContainEqual({
      name: 'updated_acquirer_id',
    });
    db.close();
  });
});

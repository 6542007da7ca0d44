import { describe, expect, it } from 'vitest';
import { openStateFile } from './sqliteFile.js';
import { countsOf, prepare, writesOn } from './stateStatements.js';

describe("the state's statements", () => {
  it('write through the prepared statements, and the counts say which tables now hold rows', () => {
    const { db, value: statements } = openStateFile(null, prepare);
    expect(countsOf(db)).toEqual({ orders: 0, journal: 0, deliveries: 0, decisions: 0 });
    const writes = writesOn(statements);
    writes.createOrder({ orderId: 'A', hash: 'ab12', evaluate: true, status: 'pending' });
    writes.addDelivery('A', 'D-1');
    expect(countsOf(db)).toEqual({ orders: 1, journal: 0, deliveries: 1, decisions: 0 });
    expect(statements.owners.all('D-1')).toEqual([{ order_id: 'A' }]);
    expect(db.prepare('SELECT hex(hash) AS hash, evaluate, last_status FROM orders').get()).toEqual({
      hash: 'AB12',
      evaluate: 1,
      last_status: 'pending',
    });
    db.close();
  });
});

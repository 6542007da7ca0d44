import { describe, expect, it } from 'vitest';
import { matchChargebacks, type MatchSources, type Owner } from './matchChargebacks.js';
import { isPlaceholderId } from './placeholderId.js';
import { shippedTable } from './reasonCategories.js';

describe('placeholder acquirer ids', () => {
  it('reads N/A, -, null, 0 and blanks as no id, and real ids as ids', () => {
    for (const id of ['N/A', 'n/a', 'NA', '-', '---', 'null', 'None', '0', '000', '  ', '?'])
      expect(isPlaceholderId(id)).toBe(true);
    for (const id of ['ACQ-1', '0123', 'NAB', 'x']) expect(isPlaceholderId(id)).toBe(false);
  });

  // Before: every N/A row read the owners of "N/A" (each order of the export), rows × orders in all,
  // and a row with N/A and its order id was ambiguous between every such order.
  it('never looks a placeholder up: a row with N/A is matched by its order id', () => {
    let looked = 0;
    const everyOrder: Owner[] = Array.from({ length: 1000 }, (_, i) => ({
      orderId: `O-${i}`,
      paymentId: null,
      source: 'orders',
    }));
    const sources: MatchSources = {
      owners: (id) => {
        looked++;
        return id === 'N/A' ? everyOrder : [];
      },
      order: () => ({ decision: 'approve', fraudTypes: [] }),
      knowsOrders: true,
      orderKnown: () => true,
      ordersByKey: () => [],
    };
    const rows = Array.from({ length: 50 }, (_, i) => ({
      file: 'r.csv',
      index: i,
      line: i + 2,
      row: { acquirer_id: 'N/A', order_id: `O-${i}`, network: 'visa', reason_code: '10.4' },
      issues: [],
    }));
    const match = matchChargebacks(rows, sources, { table: shippedTable, onlyFraud: false });
    expect(looked).toBe(0);
    expect(match.counts.matched).toBe(50);
    const alone = matchChargebacks([{ ...rows[0]!, row: { acquirer_id: 'N/A' } }], sources, {
      table: shippedTable,
      onlyFraud: false,
    });
    expect(alone.verdicts[0]).toMatchObject({ outcome: 'unmatched', issues: [{ code: 'missing-id' }] });
  });
});

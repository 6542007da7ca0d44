// Writes a state of N orders (each with one payment and an acquirer id) and a chargeback report of M rows
// (90% of them acquirer ids of that state, the rest unknown), for `collect chargebacks` against a large state.
// Usage: node bench/chargebacks.js OUT_DIR [orders=1000000] [rows=100000] [base-url=https://collect.example.com]
// Then: collect chargebacks OUT_DIR/report.csv --dry-run --state OUT_DIR/state --base-url URL --format json
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resources } from '../dist/resources/registry.js';
import { SqliteState } from '../dist/state/sqlite/sqliteState.js';

const [dir, orders = '1000000', rows = '100000', baseUrl = 'https://collect.example.com'] =
  process.argv.slice(2);
if (!dir) throw new Error('usage: node bench/chargebacks.js OUT_DIR [orders] [rows] [base-url]');
const n = Number(orders);
const m = Number(rows);
mkdirSync(dir, { recursive: true });
const state = SqliteState.open(join(dir, 'state'), baseUrl);
const now = new Date();
for (let start = 0; start < n; start += 20_000) {
  const batch = [];
  for (let i = start; i < Math.min(n, start + 20_000); i++) {
    const orderId = `ORD-${i}`;
    batch.push({
      resource: resources.order,
      hash: `${i.toString(16).padStart(40, '0')}`,
      outcome: 'accepted',
      decision: i % 50 === 0 ? 'reject' : 'approve',
      facts: {
        kind: 'order',
        orderId,
        key: orderId,
        evaluate: true,
        claims: [],
        payments: [{ id: `${orderId}-P`, acquirerId: `TX-${i}` }],
      },
    });
  }
  state.remember(batch, now);
}
state.close();
const lines = ['acquirer_id,network,reason_code,amount,currency,received_at,arn'];
for (let j = 0; j < m; j++) {
  const id = j % 10 === 9 ? `TX-UNKNOWN-${j}` : `TX-${Math.floor((j * 7919) % n)}`;
  lines.push(
    `${id},visa,${j % 3 === 0 ? '13.1' : '10.4'},${(j % 500) + 0.5},BRL,2024-04-02,7453760422143100${j}`,
  );
}
writeFileSync(join(dir, 'report.csv'), `${lines.join('\n')}\n`);
console.log(`${join(dir, 'state')}: ${n} orders; ${join(dir, 'report.csv')}: ${m} rows`);

// The match cascade at scale (issue 42 item 4): a state of N orders written straight through the
// state's own API (SqliteState.remember, 20,000 orders a transaction, no HTTP), a platform export
// (order_id, arn) of every order, and a report of M rows of which 60 % carry the acquirer id sent
// at creation and the rest only the merchant reference, the ARN or the card key (last four +
// amount + a sale date up to a day off). Runs `collect chargebacks --dry-run --format json` under
// /usr/bin/time -v and checks every matched row against the order it was generated from.
// Usage (after npm run build): node bench/chargeback-cascade.js OUT_DIR [orders=1000000] [rows=100000]
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { resources } from '../dist/resources/registry.js';
import { declaredTables } from '../dist/state/declared.js';
import { SqliteState } from '../dist/state/sqlite/sqliteState.js';

const [dir, orders = '1000000', rows = '100000'] = process.argv.slice(2);
if (!dir) throw new Error('usage: node bench/chargeback-cascade.js OUT_DIR [orders] [rows]');
const n = Number(orders);
const m = Number(rows);
const baseUrl = 'https://collect.example.com';
mkdirSync(dir, { recursive: true });

const DAY = 86_400_000;
const start = Date.UTC(2024, 0, 1);
// Deterministic, spread-out facts of order i: its card, amount (cents) and creation day.
const lastFour = (i) => String((i * 7919) % 10_000).padStart(4, '0');
const cents = (i) => 1_000 + ((i * 104_729) % 500_000);
const dayOf = (i) => (i * 31) % 365;
const arn = (i) => `7453760${String(i).padStart(15, '0')}1`;

let t = Date.now();
const state = SqliteState.open(join(dir, 'state'), baseUrl, { tables: declaredTables() });
const now = new Date();
for (let first = 0; first < n; first += 20_000) {
  const batch = [];
  for (let i = first; i < Math.min(n, first + 20_000); i++) {
    const record = {
      id: `ORD-${i}`,
      creation_datetime: new Date(start + dayOf(i) * DAY + 13 * 3_600_000).toISOString(),
      payments: [
        { id: 'P1', acquirer_id: `TX-${i}`, value: cents(i) / 100, card: { last_four_digits: lastFour(i) } },
      ],
    };
    batch.push({
      resource: resources.order,
      hash: i.toString(16).padStart(40, '0'),
      outcome: 'accepted',
      decision: 'approve',
      facts: resources.order.facts(record),
    });
  }
  state.remember(batch, now);
}
state.close();
console.log(`state: ${n} orders through SqliteState.remember in ${((Date.now() - t) / 1000).toFixed(1)} s`);

t = Date.now();
const exportFile = createWriteStream(join(dir, 'orders.csv'));
exportFile.write('order_id,arn\n');
for (let i = 0; i < n; i++) if (!exportFile.write(`ORD-${i},${arn(i)}\n`)) await once(exportFile, 'drain');
exportFile.end();
await once(exportFile, 'finish');

// Row j: an order drawn across the state; which key it carries cycles 60 % / 13.3 % x 3.
const truth = [];
const lines = ['acquirer_id,order_id,arn,card_last_four,amount,sale_date,network,reason_code,currency'];
for (let j = 0; j < m; j++) {
  const i = (j * 9_973 + 17) % n;
  truth.push(`ORD-${i}`);
  const kind =
    j % 15 < 9 ? 'acquirer' : ['reference', 'arn', 'card'][(j % 15) - 9 < 2 ? 0 : (j % 15) - 9 < 4 ? 1 : 2];
  const saleDay = new Date(start + (dayOf(i) + ((j % 3) - 1)) * DAY).toISOString().slice(0, 10);
  const amount = (cents(i) / 100).toFixed(2);
  const cells =
    kind === 'acquirer'
      ? [`TX-${i}`, '', '', '', amount, '', 'visa', '10.4', 'BRL']
      : kind === 'reference'
        ? ['', `ORD-${i}`, '', '', amount, '', 'visa', '10.4', 'BRL']
        : kind === 'arn'
          ? ['', '', arn(i), '', amount, '', 'visa', '10.4', 'BRL']
          : ['', '', '', lastFour(i), amount, saleDay, 'visa', '10.4', 'BRL'];
  lines.push(cells.join(','));
}
writeFileSync(join(dir, 'report.csv'), `${lines.join('\n')}\n`);
console.log(`export and report written in ${((Date.now() - t) / 1000).toFixed(1)} s`);

const args = [
  '-v',
  process.execPath,
  'dist/cli/collect.cjs',
  'chargebacks',
  join(dir, 'report.csv'),
  '--orders',
  join(dir, 'orders.csv'),
  '--state',
  join(dir, 'state'),
  '--base-url',
  baseUrl,
  '--dry-run',
  '--format',
  'json',
];
console.log(`/usr/bin/time ${args.join(' ')}`);
const run = spawnSync('/usr/bin/time', args, { maxBuffer: 1 << 30, encoding: 'utf8' });
writeFileSync(join(dir, 'result.json'), run.stdout);
const timing = run.stderr
  .split('\n')
  .filter((line) => /Elapsed|Maximum resident|User time|System time/.test(line));
const report = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).chargebacks;
let wrong = 0;
for (const row of report.rows) if (row.outcome === 'matched' && row.order_id !== truth[row.line - 2]) wrong++;
const matched = report.counts.matched;
console.log(
  JSON.stringify({ counts: report.counts, matched_by: report.matched_by }),
  `\nmatched ${matched}/${m} (${((100 * matched) / m).toFixed(2)} %), wrong order: ${wrong}`,
);
for (const line of timing) console.log(line.trim());
if (matched < 0.995 * m || wrong > 0) process.exitCode = 1;

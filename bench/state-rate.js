// node bench/state-rate.js POSTGRES_URL [orders=20000]: the send rate of `collect order` at
// --concurrency 8 against a local server that answers at once (bench/server.js), with the
// embedded SQLite state and with a PostgreSQL state (a fresh database), in interleaved rounds
// (BENCH_ROUNDS, 3): the median of each, and the median of the per-round ratios SQLite/PostgreSQL
// (target <= 1.5x). The rate is the server's: requests per second between its first and last.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateOrders } from './generate-orders.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const [adminUrl, countText = '20000'] = process.argv.slice(2);
if (!adminUrl) throw new Error('usage: node bench/state-rate.js POSTGRES_URL [orders]');
const count = Number(countText);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const file = `${root}bench/data/orders-${count}.csv`;
if (!existsSync(file)) {
  mkdirSync(`${root}bench/data`, { recursive: true });
  await generateOrders(file, count);
}

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `collect_rate_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
}

async function measure(state) {
  const server = fork(`${root}bench/server.js`, { stdio: 'ignore' });
  const port = await new Promise((resolve) => server.once('message', (m) => resolve(m.port)));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        'dist/cli/main.js',
        'order',
        file,
        '--base-url',
        url,
        '--state',
        state,
        '--concurrency',
        '8',
        '--format',
        'json',
      ],
      {
        cwd: root,
        env: { ...process.env, COLLECT_API_KEY: 'bench-key-1234' },
        stdio: 'ignore',
      },
    );
    child.on('close', resolve);
  });
  const seconds = (Date.now() - started) / 1000;
  const stats = await (await fetch(`${url}/_stats`)).json();
  server.kill();
  return { code, requests: stats.count, sendRate: Math.round(stats.rate), wallSeconds: seconds };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const runs = { sqlite: [], postgres: [] };
for (let round = 0; round < rounds; round++) {
  for (const kind of ['sqlite', 'postgres']) {
    const state =
      kind === 'sqlite' ? join(mkdtempSync(join(tmpdir(), 'collect-rate-')), 'state') : await freshDatabase();
    const result = await measure(state);
    console.error(JSON.stringify({ round, kind, ...result }));
    runs[kind].push(result);
  }
}
const medianRate = (kind) => median(runs[kind].map((r) => r.sendRate));
const ratio = median(runs.sqlite.map((r, i) => r.sendRate / runs.postgres[i].sendRate));
console.log(
  JSON.stringify({
    orders: count,
    concurrency: 8,
    rounds,
    sqlite: medianRate('sqlite'),
    postgres: medianRate('postgres'),
    ratio: Number(ratio.toFixed(2)),
    target: '<= 1.5x',
    met: ratio <= 1.5,
  }),
);

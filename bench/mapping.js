// npm run bench (section "mapping"), or node bench/mapping.js: a history built from a marketplace
// export (fixtures/marketplace's shape and mapping) at two sizes: the dry run and the send to a
// local server, records/s and peak memory; then the pretty report's length at 100,000 identical warnings.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectedRecords, generateMarketplace } from './generate-marketplace.js';
import { writeCsv } from './write-csv.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = `${root}bench/data`;
const sizes = (process.env.BENCH_MAPPING_SIZES ?? '100000,1000000').split(',').map(Number);
const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const rate = (records, seconds) => Math.round(records / seconds).toLocaleString('en-US');

/** Runs collect with the peak-RSS hook; resolves its wall time, CPU time, peak RSS and standard output. */
function measure(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', `${root}bench/max-rss.js`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    });
    let rss = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stdio[3].on('data', (chunk) => (rss += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}`));
      // max-rss.js writes the peak, then the CPU time
      else resolve({ seconds, rss: Number(rss.trim().split(' ')[0]), stdout });
    });
  });
}

async function exportOf(orders) {
  const dir = `${data}/marketplace-${orders}`;
  if (!existsSync(`${dir}/olist_sellers_dataset.csv`)) {
    process.stderr.write(`generating ${dir}...\n`);
    await generateMarketplace(dir, orders);
  }
  return dir;
}

const backfill = (dir, state) => [
  'dist/cli/main.js',
  'backfill',
  dir,
  '--map',
  `${dir}/mapping.yaml`,
  '--format',
  'json',
  '--state',
  state,
];

const results = [];
for (const orders of sizes) {
  const dir = await exportOf(orders);
  const records = expectedRecords(orders);
  mkdirSync(data, { recursive: true });
  let state = mkdtempSync(`${data}/state-`);
  const dry = await measure([...backfill(dir, state), '--dry-run']);
  rmSync(state, { recursive: true, force: true });
  const summary = JSON.parse(dry.stdout).summary;
  if (summary.records !== records) throw new Error(`dry run read ${summary.records} records, not ${records}`);
  const server = fork(`${root}bench/server.js`, { stdio: 'ignore' });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  state = mkdtempSync(`${data}/state-`);
  const send = await measure(
    [...backfill(dir, state), '--base-url', `http://127.0.0.1:${port}`, '--concurrency', '8'],
    { COLLECT_API_KEY: 'bench-key' },
  );
  rmSync(state, { recursive: true, force: true });
  server.kill();
  const sent = JSON.parse(send.stdout).summary;
  results.push({ orders, records, dry, send, sent: sent.sent, invalid: summary.invalid });
  console.log(
    `${orders.toLocaleString('en-US')} orders with payments and items (` +
      `${records.toLocaleString('en-US')} records: orders and statuses; ${summary.invalid} invalid):`,
  );
  console.log(
    `  dry run   ${dry.seconds.toFixed(1)} s  ${rate(records, dry.seconds)} records/s  peak ${mib(dry.rss)}`,
  );
  console.log(
    `  send      ${send.seconds.toFixed(1)} s  ${rate(records, send.seconds)} records/s  peak ` +
      `${mib(send.rss)}  (${sent.sent.toLocaleString('en-US')} requests)`,
  );
}
if (results.length === 2) {
  const [small, large] = results;
  console.log(
    `memory from ${small.orders.toLocaleString('en-US')} to ${large.orders.toLocaleString('en-US')}` +
      ` orders: dry run ${(large.dry.rss / small.dry.rss).toFixed(2)}x, send ` +
      `${(large.send.rss / small.send.rss).toFixed(2)}x (target: at most 1.25x)`,
  );
}

// The pretty report at 100,000 identical warnings (orders without a customer).
const warnings = `${data}/orders-no-user-100000.csv`;
if (!existsSync(warnings))
  await writeCsv(
    warnings,
    'id,creation_datetime,total_paid_value',
    100_000,
    (n) => `W${n},2024-01-01T00:00:00Z,10.00`,
  );
const pretty = await measure(['dist/cli/main.js', 'order', warnings, '--dry-run', '--no-state']);
console.log(
  `pretty report at 100,000 identical warnings: ${pretty.stdout.split('\n').length - 1} lines, ` +
    `${pretty.stdout.length.toLocaleString('en-US')} bytes`,
);

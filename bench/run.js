// npm run bench: collect's dry-run against the bare libraries, measured in the same run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateOrders } from './generate-orders.js';
import { generateStatuses } from './generate-statuses.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = `${root}bench/data`;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

function measure(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', `${root}bench/max-rss.js`, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
    let rss = '';
    child.stdio[3].on('data', (chunk) => (rss += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve({ seconds, rss: Number(rss.trim()) });
    });
  });
}

async function best(args) {
  let result;
  for (let i = 0; i < rounds; i++) {
    const run = await measure(args);
    if (!result || run.seconds < result.seconds) result = run;
  }
  return result;
}

async function ordersFile(rows) {
  const path = `${data}/orders-${rows}.csv`;
  if (!existsSync(path)) {
    mkdirSync(data, { recursive: true });
    process.stderr.write(`generating ${path}...\n`);
    await generateOrders(path, rows);
  }
  return path;
}

async function statusesFile(rows) {
  const path = `${data}/status-${rows}.csv`;
  if (!existsSync(path)) {
    mkdirSync(data, { recursive: true });
    process.stderr.write(`generating ${path}...\n`);
    await generateStatuses(path, rows);
  }
  return path;
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const collect = (file) => ['dist/cli/main.js', 'order', file, '--dry-run', '--format', 'json', '--no-state'];

const speedRows = 200_000;
const speedFile = await ordersFile(speedRows);
const bare = await best(['bench/baseline-csv-parse.js', speedFile]);
const ours = await best(collect(speedFile));
const bareRate = speedRows / bare.seconds;
const ourRate = speedRows / ours.seconds;
console.log(`orders CSV, ${speedRows.toLocaleString('en-US')} rows, best of ${rounds}:`);
console.log(`  bare csv-parse loop       ${bare.seconds.toFixed(2)} s  ${Math.round(bareRate).toLocaleString('en-US')} rows/s`);
console.log(`  collect order --dry-run   ${ours.seconds.toFixed(2)} s  ${Math.round(ourRate).toLocaleString('en-US')} rows/s`);
console.log(`  ratio                     ${(ourRate / bareRate).toFixed(2)}x  (target >= 0.70x)`);

const small = await measure(collect(await ordersFile(100_000)));
const large = await measure(collect(await ordersFile(1_000_000)));
console.log('peak memory of collect order --dry-run:');
console.log(`  100,000 rows              ${mib(small.rss)}`);
console.log(`  1,000,000 rows            ${mib(large.rss)}  (${large.seconds.toFixed(1)} s)`);
console.log(`  ratio                     ${(large.rss / small.rss).toFixed(2)}x  (target <= 1.25x)`);

// A backfill: 1,000,000 orders and 1,000,000 status updates, flow rules and a fresh state folder.
const backfillRows = Number(process.env.BENCH_BACKFILL_ROWS ?? 1_000_000);
const backfillOrders = await ordersFile(backfillRows);
const backfillStatuses = await statusesFile(backfillRows);
const state = mkdtempSync(`${data}/state-`);
const run = await measure(['dist/cli/main.js', 'backfill', '--order', backfillOrders, '--status', backfillStatuses, '--dry-run', '--format', 'json', '--state', state]);
rmSync(state, { recursive: true, force: true });
const records = backfillRows * 2;
console.log(`collect backfill --dry-run, ${backfillRows.toLocaleString('en-US')} orders + ${backfillRows.toLocaleString('en-US')} status updates:`);
console.log(`  ${run.seconds.toFixed(1)} s  ${Math.round(records / run.seconds).toLocaleString('en-US')} records/s  peak ${mib(run.rss)}`);

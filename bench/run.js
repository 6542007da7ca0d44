// npm run bench: collect's dry-run against the bare libraries, measured in the same run.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateOrders } from './generate-orders.js';
import { generateStatuses } from './generate-statuses.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = `${root}bench/data`;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

function measure(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', `${root}bench/max-rss.js`, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
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


async function dataFile(name, rows, generate) {
  const path = `${data}/${name}-${rows}.csv`;
  if (!existsSync(path)) {
    mkdirSync(data, { recursive: true });
    process.stderr.write(`generating ${path}...\n`);
    await generate(path, rows);
  }
  return path;
}
const ordersFile = (rows) => dataFile('orders', rows, generateOrders);
const statusesFile = (rows) => dataFile('status', rows, generateStatuses);


const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const collect = (file) => ['dist/cli/main.js', 'order', file, '--dry-run', '--format', 'json', '--no-state'];

const only = process.env.BENCH_ONLY;
const section = (name) => only === undefined || only === name;

if (section('validate')) {
const speedRows = 200_000;
const speedFile = await ordersFile(speedRows);
// Interleaved rounds, best of each: a noisy neighbour slows both sides alike.
let bare;
let ours;
for (let i = 0; i < rounds; i++) {
  const b = await measure(['bench/baseline-csv-parse.js', speedFile]);
  const o = await measure(collect(speedFile));
  if (!bare || b.seconds < bare.seconds) bare = b;
  if (!ours || o.seconds < ours.seconds) ours = o;
}
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
}

if (section('backfill')) {
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
}

if (section('send')) {
  // Sending: 40,000 status updates to a local server in its own process, 8 connections each way.
  const sendRows = 40_000;
  const statuses = await statusesFile(sendRows);
  const server = fork(`${root}bench/server.js`, { stdio: 'ignore' });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  const served = async () => (await fetch(`${url}/_stats`)).json();
  const bestOf = async (args, env) => {
    let result;
    for (let i = 0; i < rounds; i++) {
      const run = await measure(args, env);
      const seen = await served();
      if (seen.count !== sendRows) throw new Error(`${args[0]} sent ${seen.count} requests, not ${sendRows}`);
      if (!result || seen.rate > result.rate) result = { ...run, rate: seen.rate };
    }
    return result;
  };
  try {
    const bare = await bestOf(['bench/baseline-undici.js', url, statuses, '8'], {});
    const ours = await bestOf(['dist/cli/main.js', 'status', statuses, '--base-url', url, '--concurrency', '8', '--no-state', '--format', 'json'], { COLLECT_API_KEY: 'bench-key' });
    const row = (label, r) => `  ${label.padEnd(25)} ${Math.round(r.rate).toLocaleString('en-US').padStart(7)} requests/s at the server   whole run ${r.seconds.toFixed(2)} s (${Math.round(sendRows / r.seconds).toLocaleString('en-US')} records/s)`;
    console.log(`sending ${sendRows.toLocaleString('en-US')} status updates to a local server, 8 connections, best of ${rounds}:`);
    console.log(row('bare undici loop', bare));
    console.log(row('collect status (sending)', ours));
    console.log(`  ratio of request rates    ${(ours.rate / bare.rate).toFixed(2)}x  (target >= 0.80x); whole runs ${(bare.seconds / ours.seconds).toFixed(2)}x (collect also checks every record first)`);
  } finally {
    server.kill();
  }
}

if (section('rerun')) {
  // Resume: a re-run over a fully sent input sends nothing and costs about a dry run.
  const rows = Number(process.env.BENCH_RERUN_ROWS ?? 1_000_000);
  const statuses = await statusesFile(rows);
  const server = fork(`${root}bench/server.js`, { stdio: 'ignore' });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  const served = async () => (await fetch(`${url}/_stats`)).json();
  const state = mkdtempSync(`${data}/state-`);
  const command = ['dist/cli/main.js', 'status', statuses, '--base-url', url, '--state', state, '--concurrency', '8', '--format', 'json'];
  const env = { COLLECT_API_KEY: 'bench-key' };
  try {
    const first = await measure(command, env);
    const firstSent = (await served()).count;
    const rerun = await measure(command, env);
    const rerunSent = (await served()).count;
    const dry = await measure([...command, '--dry-run'], env);
    console.log(`re-running ${rows.toLocaleString('en-US')} status updates already sent (state in a fresh folder):`);
    console.log(`  first run (sends)         ${first.seconds.toFixed(1)} s  ${firstSent.toLocaleString('en-US')} requests  peak ${mib(first.rss)}`);
    console.log(`  re-run                    ${rerun.seconds.toFixed(1)} s  ${rerunSent.toLocaleString('en-US')} requests  peak ${mib(rerun.rss)}`);
    console.log(`  --dry-run, same input     ${dry.seconds.toFixed(1)} s`);
    console.log(`  ratio re-run / dry run    ${(rerun.seconds / dry.seconds).toFixed(2)}x  (target <= 1.20x)`);
  } finally {
    server.kill();
    rmSync(state, { recursive: true, force: true });
  }
}

if (section('startup')) {
  // `collect --version` and `--help` load no command module: start-up against a bare `node -e 0`, interleaved, median of each.
  const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const times = { bare: [], version: [], help: [] };
  for (let i = 0; i < runs; i++) {
    times.bare.push((await measure(['-e', '0'])).seconds);
    times.version.push((await measure(['dist/cli/main.js', '--version'])).seconds);
    times.help.push((await measure(['dist/cli/main.js', '--help'])).seconds);
  }
  const bare = median(times.bare);
  console.log(`start-up, median of ${runs} (whole process):`);
  console.log(`  node -e 0                 ${(bare * 1000).toFixed(0)} ms`);
  console.log(`  collect --version         ${(median(times.version) * 1000).toFixed(0)} ms  ${(median(times.version) / bare).toFixed(2)}x  (target <= 4x)`);
  console.log(`  collect --help            ${(median(times.help) * 1000).toFixed(0)} ms  ${(median(times.help) / bare).toFixed(2)}x`);
}

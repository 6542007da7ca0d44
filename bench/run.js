// npm run bench: every scenario of the performance table, collect's DEFAULT path (a state folder)
// against the bare libraries, in interleaved rounds (A B A B ...): each figure is the MEDIAN of
// the rounds, each ratio the median of the per-round ratios, so a noisy neighbour hits both sides.
// BENCH_ONLY=name[,name] runs some scenarios; BENCH_ROUNDS (default 5) the rounds; COLLECT_MAIN
// another build of collect (to compare with an older one); sizes: BENCH_ORDERS, BENCH_BACKFILL_ROWS,
// BENCH_SEND_ROWS, BENCH_RERUN_ROWS, BENCH_BIG_ROWS, BENCH_INVALID_ROWS. COLLECT_API_KEY of the sends: bench-key.
// BENCH_POSTGRES_URL (a PostgreSQL server's admin URL) adds the PostgreSQL state's send rate.
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateInvalidOrders } from './generate-invalid-orders.js';
import { generateOrders, generateOrdersJson, generateOrdersNdjson } from './generate-orders.js';
import { generateStatuses, generateStatusesNdjson } from './generate-statuses.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = `${root}bench/data`;
const main = process.env.COLLECT_MAIN ?? 'dist/cli/collect.cjs';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const size = (name, fallback) => Number(process.env[name] ?? fallback);
const only = process.env.BENCH_ONLY?.split(',');
const section = (name) => only === undefined || only.includes(name);
const results = [];

/** Runs one command as its own process: wall seconds, CPU seconds (all threads), peak RSS. */
function measure(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', `${root}bench/max-rss.js`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    });
    let usage = '';
    child.stdio[3].on('data', (chunk) => (usage += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const [rss, cpu] = usage.trim().split(' ').map(Number);
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve({ seconds, rss, cpu });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `rounds` pairs of runs, A then B (each a function returning a measurement), interleaved. */
async function interleaved(a, b, n = rounds) {
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push({ a: await a(i), b: await b(i) });
  return pairs;
}

/** Prints one row of the table: the medians of both sides and the median of the per-round ratios. */
function row(scenario, pairs, { figure, unit, ratio, target, meets }) {
  const a = median(pairs.map((p) => figure(p.a)));
  const b = median(pairs.map((p) => figure(p.b)));
  const r = median(pairs.map((p) => ratio(p.a, p.b)));
  results.push({ scenario, a, b, r, target, ok: meets(r), unit });
  const verdict =
    target === undefined
      ? '(no target: for the record)'
      : `(target ${target}) ${meets(r) ? 'met' : 'NOT met'}`;
  console.log(
    `  ${scenario}: collect ${a.toFixed(2)} ${unit}, baseline ${b.toFixed(2)} ${unit}; ratio ` +
      `${r.toFixed(2)}x ${verdict}`,
  );
}

async function dataFile(name, rows, generate, ext = 'csv') {
  const path = `${data}/${name}-${rows}.${ext}`;
  if (!existsSync(path)) {
    mkdirSync(data, { recursive: true });
    process.stderr.write(`generating ${path}...\n`);
    await generate(path, rows);
  }
  return path;
}
const ordersFile = (rows) => dataFile('orders', rows, generateOrders);
const ordersFiles = {
  csv: ordersFile,
  ndjson: (rows) => dataFile('orders', rows, generateOrdersNdjson, 'ndjson'),
  json: (rows) => dataFile('orders', rows, generateOrdersJson, 'json'),
};
const statusesFile = (rows) => dataFile('status', rows, generateStatuses);
const freshState = () => mkdtempSync(`${data}/state-`);
const dirBytes = (dir) => readdirSync(dir).reduce((sum, name) => sum + statSync(`${dir}/${name}`).size, 0);

/** collect with a fresh state folder (the default path, first run), removed afterwards. */
async function withFreshState(args, env = {}) {
  const state = freshState();
  try {
    return await measure([...args, '--state', state], env);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

/** A local stand-in for the service in its own process; `served()` reads and resets its counters. */
async function startServer() {
  const server = fork(`${root}bench/server.js`, { stdio: 'ignore' });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  return { url, served: async () => (await fetch(`${url}/_stats`)).json(), close: () => server.kill() };
}

console.log(`collect ${main}, ${rounds} interleaved rounds, medians`);

if (section('dry-run')) {
  const rows = size('BENCH_ORDERS', 200_000);
  const file = await ordersFile(rows);
  console.log(
    `collect order F.csv --dry-run (default state, fresh folder), ${rows.toLocaleString('en-US')} ` +
      `orders, vs a bare csv-parse loop:`,
  );
  const pairs = await interleaved(
    () => withFreshState([main, 'order', file, '--dry-run', '--format', 'json']),
    () => measure(['bench/baseline-csv-parse.js', file]),
  );
  row('dry run, default state (rate vs csv-parse)', pairs, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => b.seconds / a.seconds,
    target: '>= 0.70x',
    meets: (r) => r >= 0.7,
  });
}

if (section('no-state')) {
  const rows = size('BENCH_ORDERS', 200_000);
  const file = await ordersFile(rows);
  console.log(
    `collect order F.csv --dry-run --no-state, ${rows.toLocaleString('en-US')} orders, vs ` +
      `csv-parse + the same zod schema (CPU seconds, all threads):`,
  );
  const pairs = await interleaved(
    () => measure([main, 'order', file, '--dry-run', '--format', 'json', '--no-state']),
    () => measure(['bench/baseline-csv-zod.js', file]),
  );
  row('--no-state (cpu vs csv-parse + zod)', pairs, {
    figure: (m) => m.cpu,
    unit: 's cpu',
    ratio: (a, b) => b.cpu / a.cpu,
    target: '>= 0.90x',
    meets: (r) => r >= 0.9,
  });
  // The same runs by the clock: the pieces use every core, which costs CPU but shortens the wait.
  row('--no-state (wall vs csv-parse + zod)', pairs, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => b.seconds / a.seconds,
    target: undefined,
    meets: () => true,
  });
}

if (section('ajv')) {
  // The loop a user would write: JSON.parse (or csv-parse) + ajv compiled from what `collect schema order` prints.
  const rows = size('BENCH_ORDERS', 200_000);
  const schema = `${data}/order.schema.json`;
  mkdirSync(data, { recursive: true });
  writeFileSync(schema, execFileSync(process.execPath, [main, 'schema', 'order']));
  for (const format of ['csv', 'ndjson', 'json']) {
    const file = await ordersFiles[format](rows);
    console.log(
      `collect order F.${format} --dry-run --no-state, ${rows.toLocaleString('en-US')} orders, vs ` +
        `a ${format === 'csv' ? 'csv-parse' : 'JSON.parse'} + ajv loop (wall):`,
    );
    const pairs = await interleaved(
      () => measure([main, 'order', file, '--dry-run', '--format', 'json', '--no-state']),
      () => measure([`bench/baseline-ajv-${format}.js`, file, schema]),
    );
    row(`--no-state ${format} (rate vs ${format === 'csv' ? 'csv-parse' : 'JSON.parse'} + ajv)`, pairs, {
      figure: (m) => m.seconds,
      unit: 's',
      ratio: (a, b) => b.seconds / a.seconds,
      target: '>= 1.00x',
      meets: (r) => r >= 1,
    });
  }
}

if (section('state-cost')) {
  const rows = size('BENCH_ORDERS', 200_000);
  const file = await ordersFile(rows);
  console.log(
    `collect order F.csv --dry-run, default state (fresh folder) vs --no-state, ` +
      `${rows.toLocaleString('en-US')} orders:`,
  );
  const command = [main, 'order', file, '--dry-run', '--format', 'json'];
  const pairs = await interleaved(
    () => withFreshState(command),
    () => measure([...command, '--no-state']),
  );
  row('dry run, default state vs --no-state (wall)', pairs, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => a.seconds / b.seconds,
    target: '<= 1.25x',
    meets: (r) => r <= 1.25,
  });
}

if (section('backfill')) {
  const rows = size('BENCH_BACKFILL_ROWS', 150_000);
  const dir = `${data}/backfill-${rows}`;
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    await generateOrders(`${dir}/order.csv`, rows);
    await generateStatusesNdjson(`${dir}/status.ndjson`, rows);
  }
  console.log(
    `collect backfill DIR --dry-run (default state), ${rows.toLocaleString('en-US')} orders (CSV) ` +
      `+ ${rows.toLocaleString('en-US')} status updates (NDJSON), vs a bare read:`,
  );
  const pairs = await interleaved(
    () => withFreshState([main, 'backfill', dir, '--dry-run', '--format', 'json']),
    () => measure(['bench/baseline-read.js', dir]),
  );
  row('backfill --dry-run (rate vs bare read)', pairs, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => b.seconds / a.seconds,
    target: '>= 0.50x',
    meets: (r) => r >= 0.5,
  });
}

if (section('send')) {
  const rows = size('BENCH_SEND_ROWS', 40_000);
  const statuses = await statusesFile(rows);
  const server = await startServer();
  const env = { COLLECT_API_KEY: 'bench-key' };
  try {
    for (const connections of [8, 64]) {
      console.log(
        `sending ${rows.toLocaleString('en-US')} status updates to a local server, ${connections} ` +
          `connections (default state, fresh folder), vs a bare undici Pool loop; requests/s at the ` +
          `server:`,
      );
      const sent = (run) => async () => {
        const measured = await run();
        const seen = await server.served();
        if (seen.count !== rows) throw new Error(`sent ${seen.count} requests, not ${rows}`);
        return { ...measured, rate: seen.rate };
      };
      const pairs = await interleaved(
        sent(() =>
          withFreshState(
            [
              main,
              'status',
              statuses,
              '--base-url',
              server.url,
              '--concurrency',
              String(connections),
              '--format',
              'json',
            ],
            env,
          ),
        ),
        sent(() => measure(['bench/baseline-undici.js', server.url, statuses, String(connections)])),
      );
      row(`sending, ${connections} connections (request rate)`, pairs, {
        figure: (m) => m.rate,
        unit: 'req/s',
        ratio: (a, b) => a.rate / b.rate,
        target: '>= 0.80x',
        meets: (r) => r >= 0.8,
      });
    }
  } finally {
    server.close();
  }
}

if (section('postgres') && process.env.BENCH_POSTGRES_URL) {
  // BENCH_POSTGRES_URL: a server's admin URL (a fresh database is made per round), e.g. the tests' throwaway one.
  const { default: pg } = await import('pg');
  const freshDatabase = async () => {
    const admin = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
    await admin.connect();
    const name = `collect_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return Object.assign(new URL(process.env.BENCH_POSTGRES_URL), { pathname: `/${name}` }).toString();
  };
  const rows = size('BENCH_SEND_ROWS', 40_000);
  const statuses = await statusesFile(rows);
  const server = await startServer();
  const env = { COLLECT_API_KEY: 'bench-key' };
  try {
    console.log(
      `sending ${rows.toLocaleString('en-US')} status updates, 8 connections, with a PostgreSQL ` +
        `state vs the default SQLite state; requests/s at the server:`,
    );
    const sent = (run) => async () => {
      const measured = await run();
      const seen = await server.served();
      if (seen.count !== rows) throw new Error(`sent ${seen.count} requests, not ${rows}`);
      return { ...measured, rate: seen.rate };
    };
    const command = [
      main,
      'status',
      statuses,
      '--base-url',
      server.url,
      '--concurrency',
      '8',
      '--format',
      'json',
    ];
    const pairs = await interleaved(
      sent(async () => measure([...command, '--state', await freshDatabase()], env)),
      sent(() => withFreshState(command, env)),
    );
    row('PostgreSQL state send rate (SQLite rate / PostgreSQL rate)', pairs, {
      figure: (m) => m.rate,
      unit: 'req/s',
      ratio: (a, b) => b.rate / a.rate,
      target: '<= 1.50x',
      meets: (r) => r <= 1.5,
    });
  } finally {
    server.close();
  }
}

if (section('rerun')) {
  const rows = size('BENCH_RERUN_ROWS', 200_000);
  const statuses = await statusesFile(rows);
  const server = await startServer();
  const state = freshState();
  const env = { COLLECT_API_KEY: 'bench-key' };
  const command = [
    main,
    'status',
    statuses,
    '--base-url',
    server.url,
    '--state',
    state,
    '--concurrency',
    '8',
    '--format',
    'json',
  ];
  try {
    console.log(
      `${rows.toLocaleString('en-US')} status updates sent once, then re-run (sends nothing) vs a ` +
        `dry run of the same command:`,
    );
    await measure(command, env);
    if ((await server.served()).count !== rows) throw new Error('the first run did not send every record');
    const perMillion = (dirBytes(state) / rows) * 1e6;
    results.push({
      scenario: 'state on disk per million records sent',
      a: perMillion / 1e6,
      unit: 'MB',
      r: perMillion / 1e6,
      target: '<= 100 MB',
      ok: perMillion <= 100e6,
    });
    console.log(
      `  state on disk: ${(dirBytes(state) / 1e6).toFixed(1)} MB for ` +
        `${rows.toLocaleString('en-US')} records, ${(perMillion / 1e6).toFixed(0)} MB per million ` +
        `(target <= 100 MB)`,
    );
    const pairs = await interleaved(
      () => measure(command, env),
      () => measure([...command, '--dry-run'], env),
    );
    if ((await server.served()).count !== 0) throw new Error('a re-run sent records again');
    row('re-run over sent input (wall vs dry run)', pairs, {
      figure: (m) => m.seconds,
      unit: 's',
      ratio: (a, b) => a.seconds / b.seconds,
      target: '<= 1.20x',
      meets: (r) => r <= 1.2,
    });
  } finally {
    server.close();
    rmSync(state, { recursive: true, force: true });
  }
}

if (section('memory')) {
  const big = size('BENCH_BIG_ROWS', 1_000_000);
  const small = await ordersFile(big / 10);
  const large = await ordersFile(big);
  console.log(
    `peak RSS of collect order F.csv --dry-run (default state), ${big.toLocaleString('en-US')} vs ` +
      `${(big / 10).toLocaleString('en-US')} rows:`,
  );
  const dry = (file) => () => withFreshState([main, 'order', file, '--dry-run', '--format', 'json']);
  const pairs = await interleaved(dry(large), dry(small), size('BENCH_MEMORY_ROUNDS', rounds));
  row('peak RSS, 10x the rows', pairs, {
    figure: (m) => m.rss / 1048576,
    unit: 'MiB',
    ratio: (a, b) => a.rss / b.rss,
    target: '<= 1.25x',
    meets: (r) => r <= 1.25,
  });
}

if (section('report-memory')) {
  // Every row invalid: the report's issues, not the records, are what grows. --format sarif and json are
  // written as streams.
  const big = size('BENCH_INVALID_ROWS', 300_000);
  const small = await dataFile('invalid-orders', big / 10, generateInvalidOrders);
  const large = await dataFile('invalid-orders', big, generateInvalidOrders);
  for (const format of ['sarif', 'json']) {
    console.log(
      `peak RSS of collect order F.csv --dry-run --no-state --format ${format}, ` +
        `${big.toLocaleString('en-US')} vs ${(big / 10).toLocaleString('en-US')} invalid rows (3 ` +
        `issues each):`,
    );
    const dry = (file) => () => measure([main, 'order', file, '--dry-run', '--no-state', '--format', format]);
    const pairs = await interleaved(dry(large), dry(small), size('BENCH_MEMORY_ROUNDS', rounds));
    row(`report peak RSS, 10x the issues (${format})`, pairs, {
      figure: (m) => m.rss / 1048576,
      unit: 'MiB',
      ratio: (a, b) => a.rss / b.rss,
      target: '<= 1.50x',
      meets: (r) => r <= 1.5,
    });
  }
}

if (section('startup')) {
  console.log('collect --version vs node -e 0:');
  const pairs = await interleaved(
    () => measure([main, '--version']),
    () => measure(['-e', '0']),
    Math.max(rounds, 9),
  );
  row('collect --version (wall vs node -e 0)', pairs, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => a.seconds / b.seconds,
    target: '<= 4x',
    meets: (r) => r <= 4,
  });
  // `--help` loads no command module either.
  const help = await interleaved(
    () => measure([main, '--help']),
    () => measure(['-e', '0']),
    Math.max(rounds, 9),
  );
  row('collect --help (wall vs node -e 0)', help, {
    figure: (m) => m.seconds,
    unit: 's',
    ratio: (a, b) => a.seconds / b.seconds,
    target: '<= 4x',
    meets: (r) => r <= 4,
  });
}

console.log('\n| scenario | collect | baseline | ratio (median) | target |\n|---|---|---|---|---|');
for (const r of results) {
  const b = r.b === undefined ? '' : `${r.b.toFixed(2)} ${r.unit}`;
  console.log(
    `| ${r.scenario} | ${r.a.toFixed(2)} ${r.unit} | ${b} | ` +
      `${r.b === undefined ? `${r.r.toFixed(0)} MB` : `${r.r.toFixed(2)}x`} | ` +
      `${r.target === undefined ? 'none' : `${r.target} ${r.ok ? '(met)' : '(NOT met)'}`} |`,
  );
}

if (section('mapping')) {
  // A marketplace export through its mapping, with lists: bench/mapping.js.
  await import('./mapping.js');
}

if (section('mapping-files')) {
  // Thousands of one-row files through a mapping: bench/mapping-files.js.
  await import('./mapping-files.js');
}

// One send against a service with a realistic latency, timed from outside by farm-bench:
//   node bench/latency-send.js [--main dist/cli/main.js] [--rows 20000] [--concurrency 64]
//     [--min-ms 20] [--max-ms 200] [--fail 0.01]
// A local HTTP server on 127.0.0.1 answers each request after 20-200 ms (seeded, the same
// sequence every run), 1 % of them with a 503; `collect order` sends the orders of
// generate-orders.js to it with a fresh SQLite state folder (--postgres ADMIN_URL: a fresh
// PostgreSQL database of that server instead). Compare two builds with
//   farm-bench -n 5 --timeout 1200 --vs 'node bench/latency-send.js --main /work/old/dist/cli/main.js' \
//     -- node bench/latency-send.js
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateOrders } from './generate-orders.js';

const { values } = parseArgs({
  options: {
    main: { type: 'string', default: 'dist/cli/main.js' },
    rows: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    state: { type: 'string' },
    postgres: { type: 'string' },
    'min-ms': { type: 'string', default: '20' },
    'max-ms': { type: 'string', default: '200' },
    fail: { type: 'string', default: '0.01' },
  },
});
const rows = Number(values.rows);

// A small seeded generator (mulberry32): the same latencies and failures for every build.
let seed = 29;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let served = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const fail = random() < Number(values.fail);
    setTimeout(
      () => {
        served++;
        res.writeHead(fail ? 503 : 201, { 'content-type': 'application/json' });
        res.end(fail ? '{"message":"busy"}' : '{"message":"ok"}');
      },
      Number(values['min-ms']) + random() * (Number(values['max-ms']) - Number(values['min-ms'])),
    );
  });
});
server.keepAliveTimeout = 30_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const dataDir = join(tmpdir(), 'collect-latency-bench');
mkdirSync(dataDir, { recursive: true });
const file = join(dataDir, `orders-${rows}.csv`);
if (!existsSync(file)) await generateOrders(file, rows);

async function freshDatabase(adminUrl) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `collect_latency_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
}

const stateDir = values.postgres
  ? await freshDatabase(values.postgres)
  : (values.state ?? mkdtempSync(join(tmpdir(), 'collect-latency-state-')));
const started = performance.now();
const child = spawn(
  process.execPath,
  [
    values.main,
    'order',
    file,
    '--base-url',
    url,
    '--concurrency',
    values.concurrency,
    '--state',
    stateDir,
    '--format',
    'json',
  ],
  { env: { ...process.env, COLLECT_API_KEY: 'bench-key' }, stdio: ['ignore', 'ignore', 'inherit'] },
);
const code = await new Promise((resolve) => child.on('exit', (status) => resolve(status)));
const seconds = (performance.now() - started) / 1000;
server.close();
server.closeAllConnections();
if (!values.state && !values.postgres) rmSync(stateDir, { recursive: true, force: true });
console.log(JSON.stringify({ main: values.main, rows, served, seconds, rate: served / seconds, exit: code }));

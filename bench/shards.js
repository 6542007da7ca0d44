// node bench/shards.js POSTGRES_URL [orders per shard=8000] [shards=4]: one history (an order and a
// status change per order) delivered by N concurrent `collect backfill --shard I/N` runs against one
// PostgreSQL state and `collect sandbox`; shard 1 is killed (-9) mid-run and run again. Prints, from
// the sandbox's record of every request: requests, distinct records, duplicates, answers that were
// not 2xx (a status before its order would be one), and orders whose status came before their creation.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const [adminUrl, perShardText = '8000', shardsText = '4'] = process.argv.slice(2);
if (!adminUrl) throw new Error('usage: node bench/shards.js POSTGRES_URL [orders per shard] [shards]');
const shards = Number(shardsText);
const total = Number(perShardText) * shards;

const dir = mkdtempSync(join(tmpdir(), 'collect-shards-bench-'));
const ids = Array.from({ length: total }, (_, i) => `ORD-${i}`);
const order = (id) => ({
  id,
  creation_datetime: '2024-03-01T10:00:00Z',
  total_paid_value: 10,
  user: { id: 'U1' },
});
writeFileSync(join(dir, 'order.ndjson'), ids.map((id) => JSON.stringify(order(id))).join('\n'));
writeFileSync(
  join(dir, 'status.ndjson'),
  ids.map((id) => JSON.stringify({ id, status: 'approved' })).join('\n'),
);

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const database = `collect_bench_${Date.now()}`;
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const stateUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();

const record = join(dir, 'sandbox.ndjson');
const sandbox = spawn(process.execPath, ['dist/cli/main.js', 'sandbox', '--port', '0', '--record', record], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'pipe'],
});
const baseUrl = await new Promise((resolve) => {
  let text = '';
  sandbox.stderr.on('data', (chunk) => {
    text += chunk;
    const match = /listening on (\S+)/.exec(text);
    if (match) resolve(match[1]);
  });
});

/** Resolves once the sandbox has recorded this many requests (all shards are sending by then). */
function recorded(count) {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      let lines = 0;
      try {
        lines = readFileSync(record, 'utf8').split('\n').length - 1;
      } catch {
        lines = 0;
      }
      if (lines >= count) {
        clearInterval(poll);
        resolve(lines);
      }
    }, 200);
  });
}

function backfill(index, killWhen) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        'dist/cli/main.js',
        'backfill',
        dir,
        '--shard',
        `${index}/${shards}`,
        '--base-url',
        baseUrl,
        '--state',
        stateUrl,
        '--format',
        'json',
      ],
      {
        cwd: root,
        env: { ...process.env, COLLECT_API_KEY: 'bench-key-1234' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    void killWhen?.then(() => child.kill('SIGKILL'));
    child.on('close', (code, signal) => {
      let summary;
      try {
        summary = JSON.parse(stdout).summary;
      } catch {
        summary = undefined;
      }
      resolve({ shard: index, code, signal, sent: summary?.sent, skipped: summary?.skipped });
    });
  });
}

const started = Date.now();
// Shard 1 is killed once a quarter of all requests were made: mid-send for every shard.
const killWhen = recorded(Math.floor(total / 2));
const runs = await Promise.all(
  Array.from({ length: shards }, (_, i) => backfill(i, i === 1 ? killWhen : undefined)),
);
const recordedAtKill = await killWhen;
const rerun = await backfill(1);
const seconds = (Date.now() - started) / 1000;
sandbox.kill('SIGINT');
await new Promise((resolve) => sandbox.on('close', resolve));

const lines = readFileSync(record, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const counts = new Map();
const firstAt = new Map();
let notOk = 0;
lines.forEach((line, position) => {
  const key = `${line.method} ${line.body?.id}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (!firstAt.has(key)) firstAt.set(key, position);
  if (!(line.status >= 200 && line.status < 300)) notOk++;
});
const missing = ids.filter((id) => !counts.has(`POST ${id}`) || !counts.has(`PUT ${id}`)).length;
const outOfOrder = ids.filter((id) => firstAt.get(`PUT ${id}`) < firstAt.get(`POST ${id}`)).length;
console.log(
  JSON.stringify({
    shards,
    orders: total,
    records: 2 * total,
    requests: lines.length,
    distinct: counts.size,
    duplicates: lines.length - counts.size,
    missing,
    notOk,
    outOfOrder,
    seconds,
    recordedAtKill,
    runs,
    rerunOfKilledShard: rerun,
  }),
);

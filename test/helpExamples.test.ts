import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { spawn, type IPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullProgram } from '../src/cli/run.js';
import { registry } from '../src/resources/registry.js';
import { skipNote } from './helpers/prerequisites.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { quietIo, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/**
 * Every `$ ...` line of every command's --help, run as written through sh in a scratch folder
 * holding the files the examples name, in the order of its help (a line ending in & stays in the
 * background until a later line stops it). A command that says it is ready (a sandbox listening, a
 * relay relaying) and is not done by then is a server: it is stopped by SIGTERM and must exit 0.
 * Every other line must exit 0. Only the addresses are replaced (PLACES): the service's and
 * staging's by a sandbox this test runs, the outbox database by a fresh one, port 8787 by a free one.
 */
const root = resolve('.');
const KEY = 'example-key-0123456789';
const READY = /collect sandbox: listening on|"state":"started"|relaying /;

function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

/** The `$ ` lines of each command's help, by the words that run the command. */
async function examplesByCommand(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const path of commandPaths(await fullProgram(quietIo(), () => {}))) {
    const { stdout } = await runCli([...path, '--help']);
    const lines = [...stdout.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1]!.trim());
    if (lines.length > 0) found.set(path.join(' '), lines);
  }
  return found;
}

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

interface Running {
  child: IPty;
  output: () => string;
  ended: Promise<number>;
  /** Resolves once the output matches. */
  saw: (pattern: RegExp) => Promise<void>;
}

/** A line on a pseudo-terminal, as a user types it: a question (`[y/N]`) is answered yes. */
function start(line: string, cwd: string, env: Record<string, string>): Running {
  const child = spawn('sh', ['-c', line], { cwd, env: { TERM: 'dumb', ...env }, cols: 200, rows: 50 });
  let output = '';
  let answered = false;
  const waiters = new Set<() => void>();
  child.onData((data) => {
    output += data;
    if (!answered && output.includes('[y/N]')) {
      answered = true;
      child.write('y\r');
    }
    for (const check of waiters) check();
  });
  const ended = new Promise<number>((done) => child.onExit(({ exitCode }) => done(exitCode)));
  const saw = (pattern: RegExp) =>
    new Promise<void>((done) => {
      const check = () => pattern.test(output) && (waiters.delete(check), done());
      waiters.add(check);
      check();
    });
  return { child, output: () => output, ended, saw };
}

/** Ends with the process (false), or with its saying it is ready (true). */
const readyOrEnded = (running: Running): Promise<boolean> =>
  Promise.race([running.saw(READY).then(() => true), running.ended.then(() => READY.test(running.output()))]);

const endpointFiles = (name: string, dir: string) => {
  const fixture = (file: string) => readFileSync(join(root, 'fixtures', name, file), 'utf8');
  const lines = fixture('valid.ndjson').trim().split('\n');
  const half = Math.ceil(lines.length / 2);
  writeFileSync(join(dir, `${name}.csv`), fixture('valid.csv'));
  writeFileSync(join(dir, `${name}.ndjson`), fixture('valid.ndjson'));
  writeFileSync(join(dir, 'a.ndjson'), `${lines.slice(0, half).join('\n')}\n`);
  writeFileSync(join(dir, 'b.json.gz'), gzipSync(`[${lines.slice(half).join(',\n')}]\n`));
};

/** The files the examples of `command` name, in its scratch folder. */
async function scratchFor(command: string, env: Record<string, string>): Promise<string> {
  const dir = tempDir('collect-help-example-');
  cpSync(join(root, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  for (const folder of ['.local/share/bash-completion/completions', '.zfunc', '.config/fish/completions'])
    mkdirSync(join(dir, 'home', folder), { recursive: true });
  const name = command.split(' ')[0]!;
  if (registry.get(name)) {
    endpointFiles(name, dir);
    // An export in the endpoint's own CSV, and the mapping collect proposes for it (an order's: a platform's export).
    cpSync(join(root, 'fixtures', name, 'valid.csv'), join(dir, 'export.csv'));
    const proposed = await runCli(['map', 'init', join(dir, 'export.csv'), '--endpoint', name]);
    writeFileSync(join(dir, 'mapping.yaml'), name === 'order' ? ORDER_MAPPING : proposed.stdout);
    if (name === 'order') writeFileSync(join(dir, 'export.csv'), ORDER_EXPORT);
  }
  // A folder of endpoint files (backfill), or a platform's export (map init).
  if (command === 'map init') {
    mkdirSync(join(dir, 'exports'));
    cpSync(join(root, 'fixtures/shopify/orders_export_1.csv'), join(dir, 'exports/orders.csv'));
  } else cpSync(join(root, 'fixtures', 'history'), join(dir, 'exports'), { recursive: true });
  writeFileSync(join(dir, 'orders-2023.csv'), readFileSync(join(root, 'fixtures/history/order.csv')));
  writeFileSync(join(dir, 'orders-2024.csv'), readFileSync(join(root, 'fixtures/order/valid.csv')));
  writeFileSync(
    join(dir, 'statuses.csv.gz'),
    gzipSync(readFileSync(join(root, 'fixtures/status/valid.csv'))),
  );
  writeFileSync(join(dir, 'decisions.csv'), 'order_id,decision\nORD-1001,approve\n');
  writeFileSync(join(dir, 'export.ndjson.gz'), gzipSync('{"order_id":"ORD-1002","decision":"reject"}\n'));
  writeFileSync(join(dir, 'events.ndjson'), readFileSync(join(root, 'fixtures/order/valid.ndjson')));
  cpSync(join(root, 'fixtures/chargebacks/acquirer.yaml'), join(dir, 'acquirer.yaml'));
  // A chargeback report in collect's columns, one in the acquirer's (its first two rows), and the orders' ids.
  writeFileSync(join(dir, 'report.csv'), 'acquirer_id,reason_code,network\nTX-2001,10.4,visa\n');
  const acquirer = readFileSync(join(root, 'fixtures/chargebacks/report.csv'), 'utf8').split('\n');
  writeFileSync(join(dir, 'acquirer-report.csv'), `${acquirer.slice(0, 3).join('\n')}\n`);
  writeFileSync(join(dir, 'orders.csv'), 'order_id,acquirer_id\nORD-2001,TX-2001\n');
  // An application whose test sends one order to the service it is given (the sandbox's `-- npm test`).
  const order = readFileSync(join(root, 'fixtures/order/valid.ndjson'), 'utf8').split('\n')[0]!;
  writeFileSync(join(dir, 'app-order.json'), order);
  const post =
    `curl -sf -o /dev/null -X POST -H "Authorization: Bearer ${KEY}" -H "content-type: ` +
    `application/json" -d @app-order.json "$COLLECT_BASE_URL/v2/order"`;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'app', private: true, scripts: { test: post } }),
  );
  mkdirSync(join(dir, 'bin'));
  symlinkSync(join(root, 'dist', 'cli', 'collect.cjs'), join(dir, 'bin', 'collect')); // the bin users run
  env.PATH = `${join(dir, 'bin')}:${process.env.PATH ?? ''}`;
  env.HOME = join(dir, 'home');
  return dir;
}

const ORDER_EXPORT = 'Name,Created,Total,Email\n#1001,2024-03-01T10:00:00Z,10.50,ana@example.com\n';
const ORDER_MAPPING = `version: 1
records:
  - endpoint: order
    from: export.csv
    fields:
      id: Name
      creation_datetime: { column: Created, datetime: iso }
      total_paid_value: { column: Total, number: decimal-point }
      user.id: Email
`;

let service: Running;
let serviceUrl = '';
let postgres: TestPostgres | null = null;
const examples = await examplesByCommand();

beforeAll(async () => {
  const port = await freePort();
  service = start(`exec node ${join(root, 'dist/cli/main.js')} sandbox --port ${port}`, tmpdir(), {
    PATH: process.env.PATH ?? '',
  });
  expect(await readyOrEnded(service)).toBe(true);
  serviceUrl = `http://127.0.0.1:${port}`;
  // The service knows the orders the examples mark (as a user's service knows theirs).
  const known = start(
    `exec node ${join(root, 'dist/cli/main.js')} backfill --order ` +
      `fixtures/chargebacks/orders.ndjson --order fixtures/history/order.csv --no-state --base-url ` +
      `${serviceUrl}`,
    root,
    { PATH: process.env.PATH ?? '', COLLECT_API_KEY: KEY },
  );
  expect(await known.ended, known.output()).toBe(0);
  postgres = await startTestPostgres();
});
afterAll(async () => {
  service.child.kill('SIGTERM');
  await service.ended;
  postgres?.stop();
});

describe('every example of every --help runs as written', () => {
  it('finds the examples of the root, every endpoint and every command', () => {
    for (const name of ['', ...registry.names, 'backfill', 'chargebacks', 'decisions', 'relay', 'sandbox'])
      expect(examples.has(name), name).toBe(true);
  });

  for (const [command, lines] of examples) {
    it(`collect ${command} --help`, async (context) => {
      const needsPostgres = lines.some((line) => line.includes('postgres://'));
      if (needsPostgres && !postgres) return context.skip(skipNote('postgres'));
      // The environment of a user who set up collect: the key and the service.
      const env: Record<string, string> = { COLLECT_API_KEY: KEY, COLLECT_BASE_URL: serviceUrl };
      const dir = await scratchFor(command, env);
      const port = await freePort();
      const database = needsPostgres ? await postgres!.database() : '';
      const PLACES: [RegExp, string][] = [
        [/https:\/\/(collect|staging)\.example\.com/g, serviceUrl],
        [/127\.0\.0\.1:8787/g, `127.0.0.1:${port}`],
        [/postgres:\/\/app@db\/shop/g, database],
        [/^collect sandbox(?!.*--port)/, `collect sandbox --port ${port}`],
      ];
      const background: { line: string; running: Running }[] = [];
      for (const written of lines) {
        const line = PLACES.reduce((text, [place, value]) => text.replace(place, value), written);
        const command = line.replace(/\s+#.*$/, '');
        const behind = command.endsWith('&');
        const running = start(behind ? command.slice(0, -1) : line, dir, env);
        if (behind) {
          expect(await readyOrEnded(running), `${written}\n${running.output()}`).toBe(true);
          background.push({ line: written, running });
          continue;
        }
        const server = !line.includes(' -- ') && (await readyOrEnded(running));
        if (server) running.child.kill('SIGTERM');
        expect(await running.ended, `${written}\n${running.output()}`).toBe(0);
      }
      for (const { line, running } of background)
        expect(await running.ended, `${line}\n${running.output()}`).toBe(0);
    });
  }
});

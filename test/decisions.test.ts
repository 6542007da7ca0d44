import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderRecord } from './helpers/history.js';
import { acceptingService } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { MAX_ID_LENGTH } from '../src/schema/formats.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-12345678' };
const service = acceptingService;

function file(name: string, text: string): string {
  const path = join(tempDir('collect-decisions-'), name);
  writeFileSync(path, text);
  return path;
}

const markByHand = (url: string, state: string, ...extra: string[]) => [
  'fraud',
  '--order-id',
  'ORD-1',
  '--type',
  'chargeback',
  '--base-url',
  url,
  '--state',
  state,
  ...extra,
];
const marks = (url: string) => ['fraud', '--base-url', url];
const sentMarks = (server: { requests: { path: string; body: string }[] }) =>
  server.requests
    .filter((r) => r.path.endsWith('mark_fraudulent'))
    .map((r) => (JSON.parse(r.body) as { order_id: string }).order_id);

describe('collect decisions', () => {
  it('loads a CSV of decisions: a fraud mark by hand for a rejected order is refused, nothing sent', async () => {
    const server = await service();
    const state = freshStateDir();
    const loaded = await runCli([
      'decisions',
      file('decisions.csv', 'order_id,decision\nORD-1,reject\nORD-2,approve\n'),
      '--base-url',
      server.url,
      '--state',
      state,
    ]);
    expect(loaded.code).toBe(0);
    expect(loaded.stdout).toContain('loaded 2 decisions (1 reject, 1 approve)');
    const { code, stdout } = await runCli(markByHand(server.url, state, '--yes'), { env });
    expect(code).toBe(1);
    expect(stdout).toContain('fraud-after-service-decline');
    expect(stdout).toContain('nothing sent');
    expect(sentMarks(server)).toEqual([]);
  });

  it(
    'holds in files: loaded NDJSON decisions refuse the rejected order, send the approved one, and ' +
      'group the unknown ones in one note',
    async () => {
      const server = await service();
      const state = freshStateDir();
      const decisions = file(
        'decisions.ndjson',
        '{"order_id":"ORD-1","decision":"reject"}\n{"order_id":"ORD-2","legiti_decision":"approve"}\n',
      );
      expect((await runCli(['decisions', decisions, '--base-url', server.url, '--state', state])).code).toBe(
        0,
      );
      const fraud = file(
        'fraud.ndjson',
        ['ORD-1', 'ORD-2', 'ORD-3', 'ORD-4']
          .map((id) => JSON.stringify({ order_id: id, fraud_signal_type: 'chargeback' }))
          .join('\n'),
      );
      const { code, stdout } = await runCli(
        [...marks(server.url), fraud, '--state', state, '--format', 'json'],
        { env },
      );
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as {
        issues: { code: string; index: number }[];
        notes: { code: string; message: string; count?: number }[];
      };
      expect(
        report.issues.filter((i) => i.code === 'fraud-after-service-decline').map((i) => i.index),
      ).toEqual([0]);
      expect(sentMarks(server).sort()).toEqual(['ORD-2', 'ORD-3', 'ORD-4']);
      const unknown = report.notes.filter((n) => n.code === 'fraud-after-service-decline');
      expect(unknown).toHaveLength(1);
      expect(unknown[0]!.count).toBe(2);
      expect(unknown[0]!.message).toContain(
        'collect does not know whether the service declined this order itself',
      );
      expect(JSON.stringify(unknown)).not.toContain('skipped');
    },
  );

  it('reports the rows it cannot load with their file and line, loads the others, and exits 1', async () => {
    const state = freshStateDir();
    const path = file('decisions.csv', 'order_id,decision\nORD-1,reject\n,approve\nORD-3,maybe\n');
    const { code, stdout } = await runCli([
      'decisions',
      path,
      '--base-url',
      'https://collect.example.com',
      '--state',
      state,
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('loaded 1 decision (1 reject)');
    expect(stdout).toContain(`${path}:3: order_id is missing or empty`);
    expect(stdout).toContain(
      `${path}:4: decision "maybe" is not one of approve, reject, manual, unavailable`,
    );
  });

  it(
    'refuses an order_id longer than an id may be (300 KB), per row with its file, line, field and ' +
      'rule, without echoing it',
    async () => {
      const state = freshStateDir();
      const huge = 'X'.repeat(300_000);
      for (const [name, line, text] of [
        ['d.csv', 3, `order_id,decision\nORD-1,reject\n${huge},reject\n`],
        [
          'd.ndjson',
          2,
          `{"order_id":"ORD-1","decision":"reject"}\n{"order_id":"${huge}","decision":"reject"}\n` +
            `{"order_id":"ORD-2","decision":"${'\\u001b[2J'}${'Y'.repeat(500)}"}\n`,
        ],
      ] as const) {
        const path = file(name, text);
        const { code, stdout } = await runCli([
          'decisions',
          path,
          '--base-url',
          'https://collect.example.com',
          '--state',
          state,
        ]);
        expect(code).toBe(1);
        expect(stdout).toContain('loaded 1 decision (1 reject)');
        expect(stdout).toContain(
          `${path}:${line}: order_id is 300,000 characters long; an id has at most ${MAX_ID_LENGTH} (too-long)`,
        );
        expect(stdout.length).toBeLessThan(2000);
        expect(stdout).not.toContain('\u001b');
      }
    },
  );

  it(
    'is the way out named when a mark by hand is refused as unknown-order: an order the platform ' +
      'created',
    async () => {
      const server = await service();
      const state = freshStateDir();
      // The state knows an order collect created, so an order it never saw is unknown-order.
      const orders = file('orders.ndjson', JSON.stringify(orderRecord('ORD-COLLECT')));
      expect(
        (await runCli(['order', orders, '--base-url', server.url, '--state', state], { env })).code,
      ).toBe(0);
      const mark = ['fraud', '--order-id', 'ORD-PLATFORM', '--type', 'chargeback', '--yes'];
      const at = ['--base-url', server.url, '--state', state];
      const refused = await runCli([...mark, ...at], { env: { ...env, NO_COLOR: '1' } });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain('[unknown-order]');
      expect(refused.stdout).toContain(
        'fix: correct the order id, or send its creation first; for an order the platform created ' +
          'itself, load its decision first: collect decisions FILE (columns order_id,decision) with the ' +
          'same --base-url and --state',
      );
      expect(sentMarks(server)).toEqual([]);
      // Following the fix sends the mark.
      const decisions = file('decisions.csv', 'order_id,decision\nORD-PLATFORM,approve\n');
      expect((await runCli(['decisions', decisions, ...at])).code).toBe(0);
      expect((await runCli([...mark, ...at], { env })).code).toBe(0);
      expect(sentMarks(server)).toEqual(['ORD-PLATFORM']);
    },
  );

  it('needs the service whose state it loads into', async () => {
    const { code, stderr } = await runCli([
      'decisions',
      file('d.csv', 'order_id,decision\n'),
      '--state',
      freshStateDir(),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('--base-url');
  });
});

describe('a fraud mark by hand for an order whose decision is unknown', () => {
  it('says so in the preview before the question, in words an analyst understands', async () => {
    const server = await service();
    const { code, stderr } = await runCli(markByHand(server.url, freshStateDir()), {
      env,
      stdin: 'n\n',
      stdinIsTTY: true,
    });
    expect(code).toBe(1);
    const warning = stderr.indexOf('warning: fraud-after-service-decline');
    expect(warning).toBeGreaterThan(stderr.indexOf('"fraud_signal_type": "chargeback"'));
    expect(warning).toBeLessThan(stderr.indexOf('Send this fraud mark? [y/N]'));
    expect(stderr).toContain('collect does not know whether the service declined this order itself');
    expect(stderr).toContain('collect decisions FILE');
    expect(sentMarks(server)).toEqual([]);
  });

  it('with --yes says the same on standard error, and sends', async () => {
    const server = await service();
    const { code, stderr } = await runCli(markByHand(server.url, freshStateDir(), '--yes'), { env });
    expect(code).toBe(0);
    expect(stderr).toContain('warning: fraud-after-service-decline');
    expect(sentMarks(server)).toEqual(['ORD-1']);
  });

  it('says nothing when the decision is known to be an approval', async () => {
    const server = await service();
    const state = freshStateDir();
    await runCli([
      'decisions',
      file('d.csv', 'order_id,decision\nORD-1,approve\n'),
      '--base-url',
      server.url,
      '--state',
      state,
    ]);
    const { code, stderr } = await runCli(markByHand(server.url, state, '--yes'), { env });
    expect(code).toBe(0);
    expect(stderr).not.toContain('warning:');
    expect(sentMarks(server)).toEqual(['ORD-1']);
  });
});

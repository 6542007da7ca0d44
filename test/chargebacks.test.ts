import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { startTestPostgres } from './helpers/postgres.js';
import { tempDir } from './helpers/tempDir.js';
import { itWith } from './helpers/withPrerequisite.js';
import { testSandbox } from './helpers/sandbox.js';

const env = { COLLECT_API_KEY: 'k-chargebacks-1' };

/** A service that accepts everything and rejects, in its evaluation, the orders whose id ends in -R. */
async function service() {
  const server = await startServer((request) => {
    const body = JSON.parse(request.body || '{}') as { id?: string; evaluate?: boolean };
    if (request.path === '/v2/order' && request.method === 'POST' && body.evaluate)
      return { status: 200, body: { decision: body.id?.endsWith('-R') ? 'reject' : 'approve' } };
    return { status: 201, body: { message: 'ok' } };
  });
  onTestFinished(server.close);
  return server;
}

const withPayment = (id: string, acquirer?: string) =>
  orderRecord(id, {
    evaluate: true,
    payments: [{ id: `${id}-P`, value: 10, ...(acquirer ? { acquirer_id: acquirer } : {}) }],
  });

/**
 * The history: acquirer ids sent at creation (ORD-1, ORD-2, ORD-3-R), by a payment update (ORD-4), and twice
 * (ORD-5, ORD-6).
 */
async function history(url: string, state: string) {
  const dir = tempDir('collect-cb-');
  writeFileSync(
    join(dir, 'orders.ndjson'),
    nd(
      withPayment('ORD-1', 'TX-1'),
      withPayment('ORD-2', 'TX-2'),
      withPayment('ORD-3-R', 'TX-3'),
      withPayment('ORD-4'),
      withPayment('ORD-5', 'TX-DUP'),
      withPayment('ORD-6', 'TX-DUP'),
      withPayment('ORD-7', 'TX-7'),
    ),
  );
  writeFileSync(join(dir, 'payments.ndjson'), nd({ id: 'ORD-4-P', order_id: 'ORD-4', acquirer_id: 'TX-4' }));
  const sent = (file: string, endpoint: string) =>
    runCli([endpoint, join(dir, file), '--base-url', url, '--state', state], { env });
  expect((await sent('orders.ndjson', 'order')).code).toBe(0);
  expect((await sent('payments.ndjson', 'payment')).code).toBe(0);
  return dir;
}

/** A report with every kind of row. */
const REPORT = [
  'acquirer_id,order_id,network,reason_code,amount,currency,received_at,arn',
  'TX-1,,visa,10.4,129.90,BRL,2024-04-02,74537604221431003881865', // matched
  'TX-1,,mastercard,4837,10.00,BRL,2024-04-03,', // matched: the same order, one mark
  'TX-4,,visa,13.1,50,BRL,2024-04-02,', // matched through the payment update
  'TX-404,,visa,10.4,1,BRL,2024-04-02,', // unmatched
  'TX-DUP,,visa,10.4,1,BRL,2024-04-02,', // ambiguous
  'TX-3,,visa,10.4,1,BRL,2024-04-02,', // refused (§1.5)
  ',,visa,10.4,1,BRL,2024-04-02,', // invalid: no id
  'TX-2,,amex,F29,abc,BRL,2024-04-02,', // invalid: amount
].join('\n');

interface Json {
  chargebacks: {
    counts: Record<string, number>;
    marks: number;
    rows: { line: number; outcome: string; order_id?: string; issues: { code: string }[] }[];
  };
  summary: Record<string, number>;
}

async function scenario(state: string) {
  const server = await service();
  const dir = await history(server.url, state);
  server.requests.length = 0;
  const report = join(dir, 'report.csv');
  writeFileSync(report, REPORT);
  const args = (...extra: string[]) => [
    'chargebacks',
    report,
    '--base-url',
    server.url,
    '--state',
    state,
    ...extra,
  ];

  const dry = await runCli(args('--dry-run', '--format', 'json'), { env });
  expect(dry.code).toBe(1);
  const json = JSON.parse(dry.stdout) as Json;
  expect(json.chargebacks.counts).toEqual({
    matched: 3,
    unmatched: 1,
    ambiguous: 1,
    'already-marked': 0,
    refused: 1,
    invalid: 2,
    'not-fraud': 0,
    'fraud-notice': 0,
    'not-chargeback': 0,
  });
  expect(json.chargebacks.marks).toBe(2);
  expect(json.chargebacks.rows.map((r) => [r.line, r.outcome, r.issues.map((i) => i.code).join()])).toEqual([
    [2, 'matched', ''],
    [3, 'matched', ''],
    [4, 'matched', ''],
    [5, 'unmatched', 'unknown-acquirer-id'],
    [6, 'ambiguous', 'ambiguous-acquirer-id'],
    [7, 'refused', 'fraud-after-service-decline'],
    [8, 'invalid', 'missing-id'],
    [9, 'invalid', 'invalid-number'],
  ]);
  expect(server.requests).toHaveLength(0);

  const pretty = await runCli(args('--dry-run'), { env: { ...env, NO_COLOR: '1' } });
  expect(pretty.stdout).toContain(
    'matched 3, unmatched 1, ambiguous 1, already-marked 0, refused 1, invalid 2',
  );
  expect(pretty.stdout).toContain(`${report}:5  unmatched  unknown-acquirer-id`);
  expect(pretty.stdout).toContain(`${report}:7  refused  fraud-after-service-decline`);

  const rejects = join(dir, 'fix.csv');
  const sent = await runCli(args('--yes', '--rejects', rejects), { env });
  expect(sent.code).toBe(1);
  const bodies = server.requests.map((r) => [r.method, r.path, JSON.parse(r.body) as object]);
  expect(bodies).toEqual([
    [
      'POST',
      '/v2/order/mark_fraudulent',
      {
        order_id: 'ORD-1',
        fraud_signal_type: 'chargeback',
        fraud_comment:
          '2 chargebacks: visa 10.4 (fraud: other fraud: card-absent environment), 129.9 BRL, ' +
          'received 2024-04-02, ARN 74537604221431003881865; mastercard 4837 (fraud: no cardholder ' +
          'authorisation), 10 BRL, received 2024-04-03',
      },
    ],
    [
      'POST',
      '/v2/order/mark_fraudulent',
      {
        order_id: 'ORD-4',
        fraud_signal_type: 'chargeback',
        fraud_comment:
          'chargeback: visa 13.1 (consumer-dispute: merchandise or services not received), 50 BRL, received 2024-04-02',
      },
    ],
  ]);
  expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${env.COLLECT_API_KEY}`);
  const fixed = readFileSync(rejects, 'utf8').trim().split('\n');
  expect(fixed[0]).toBe(
    'acquirer_id,order_id,network,reason_code,amount,currency,received_at,arn,collect_reason',
  );
  expect(fixed.slice(1).map((line) => line.split(',')[0])).toEqual(['TX-404', 'TX-DUP', '', 'TX-2']);

  // A re-run of the same report sends nothing: its orders are already marked.
  server.requests.length = 0;
  const again = await runCli(args('--yes', '--format', 'json'), { env });
  expect(server.requests).toHaveLength(0);
  expect((JSON.parse(again.stdout) as Json).chargebacks.counts['already-marked']).toBe(3);
  return { server, dir, report, args };
}

describe('collect chargebacks', () => {
  it(
    'matches a report through a SQLite state: six counts, two marks, §1.5 refused, rejects, nothing ' +
      'twice',
    async () => {
      await scenario(tempDir('collect-cb-state-'));
    },
  );

  itWith('postgres')('does the same with a PostgreSQL state', async () => {
    const postgres = await startTestPostgres();
    await scenario(await postgres!.database());
  });

  it('matches through --orders FILE, and --only-fraud skips the consumer disputes', async () => {
    const server = await service();
    const dir = tempDir('collect-cb-');
    writeFileSync(join(dir, 'orders.csv'), 'order_id,acquirer_id,shop\nEXT-1,A-1,x\nEXT-2,A-2,y\n');
    writeFileSync(
      join(dir, 'report.ndjson'),
      nd(
        { acquirer_id: 'A-1', network: 'visa', reason_code: '10.4' },
        { acquirer_id: 'A-2', network: 'visa', reason_code: '13.1' },
      ),
    );
    const result = await runCli(
      [
        'chargebacks',
        join(dir, 'report.ndjson'),
        '--orders',
        join(dir, 'orders.csv'),
        '--only-fraud',
        '--base-url',
        server.url,
        '--no-state',
        '--yes',
        '--format',
        'json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Json).chargebacks.counts).toMatchObject({
      matched: 1,
      'not-fraud': 1,
    });
    expect(server.requests.map((r) => (JSON.parse(r.body) as { order_id: string }).order_id)).toEqual([
      'EXT-1',
    ]);
  });

  it('refuses to send without a terminal unless --yes is given', async () => {
    const result = await runCli(
      ['chargebacks', '-', '--input-format', 'ndjson', '--base-url', 'http://127.0.0.1:9'],
      {
        env,
        stdin: nd({ acquirer_id: 'A-1' }),
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('add --yes');
  });

  it('rehearses the README walkthrough at the sandbox: the fixture report through its mapping', async () => {
    const sandbox = await testSandbox({
      slowMs: 300,
    });
    const fixtures = 'fixtures/chargebacks';
    const state = tempDir('collect-cb-state-');
    const at = ['--base-url', sandbox.url, '--state', state];
    expect((await runCli(['order', `${fixtures}/orders.ndjson`, ...at], { env })).code).toBe(0);
    expect((await runCli(['payment', `${fixtures}/payments.ndjson`, ...at], { env })).code).toBe(0);
    const lookup = await fetch(`${sandbox.url}/_sandbox/orders?acquirer_id=TX-2005`);
    expect(await lookup.json()).toEqual({ acquirer_id: 'TX-2005', orders: ['ORD-2005', 'ORD-2006'] });
    const report = ['chargebacks', `${fixtures}/report.csv`, '--map', `${fixtures}/acquirer.yaml`, ...at];
    const no = await runCli(report, { env, stdin: 'n\n', stdinIsTTY: true });
    expect(no.stderr).toContain('Send 2 chargeback marks? [y/N]');
    expect(no.code).toBe(1);
    const yes = await runCli([...report, '--format', 'json'], { env, stdin: 'y\n', stdinIsTTY: true });
    expect((JSON.parse(yes.stdout) as Json).chargebacks.counts).toMatchObject({
      matched: 3,
      unmatched: 1,
      ambiguous: 1,
      refused: 1,
      invalid: 1,
    });
    const held = async (id: string) =>
      (
        (await (await fetch(`${sandbox.url}/_sandbox/orders/${id}`)).json()) as {
          updates: { fraud?: object[] };
        }
      ).updates.fraud;
    expect(await held('ORD-2001')).toEqual([
      {
        order_id: 'ORD-2001',
        fraud_signal_type: 'chargeback',
        fraud_comment:
          '2 chargebacks: visa 10.4 (fraud: other fraud: card-absent environment) "Fraude em ' +
          'ambiente sem cartão", 129.9 BRL, received 2024-04-02T03:00:00Z, ARN ' +
          '74537604221431003881865; mastercard 4837 (fraud: no cardholder authorisation) "Sem ' +
          'autorização do portador", 10 BRL, received 2024-04-03T03:00:00Z',
      },
    ]);
    expect(await held('ORD-2004')).toHaveLength(1);
    expect(await held('ORD-2003')).toBeUndefined();
  });

  it('marks one order by hand from its acquirer id: collect fraud --acquirer-id', async () => {
    const server = await service();
    const state = tempDir('collect-cb-state-');
    await history(server.url, state);
    server.requests.length = 0;
    const mark = (id: string) =>
      runCli(
        [
          'fraud',
          '--acquirer-id',
          id,
          '--type',
          'chargeback',
          '--base-url',
          server.url,
          '--state',
          state,
          '--yes',
        ],
        {
          env,
        },
      );
    expect((await mark('TX-4')).code).toBe(0);
    expect(server.requests.map((r) => JSON.parse(r.body) as object)).toEqual([
      { order_id: 'ORD-4', fraud_signal_type: 'chargeback' },
    ]);
    const ambiguous = await mark('TX-DUP');
    expect([ambiguous.code, ambiguous.stderr]).toEqual([1, expect.stringContaining('ambiguous-acquirer-id')]);
    const unknown = await mark('TX-404');
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('unknown-acquirer-id')]);
    expect(server.requests).toHaveLength(1);
  });
});

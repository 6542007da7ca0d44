import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nd } from './helpers/history.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const env = { COLLECT_API_KEY: 'k-cascade-1' };
type Rows = {
  line: number;
  outcome: string;
  order_id?: string;
  matched_by?: string;
  issues: { code: string }[];
}[];
type Json = {
  chargebacks: { counts: Record<string, number>; matched_by: Record<string, number>; rows: Rows };
};

const order = (id: string, lastFour: string, value: number, created: string, acquirer?: string) => ({
  id,
  creation_datetime: created,
  total_paid_value: value,
  user: { id: 'U1' },
  payments: [
    {
      id: `${id}-P`,
      method: 'credit_card',
      value,
      card: { last_four_digits: lastFour },
      ...(acquirer ? { acquirer_id: acquirer } : {}),
    },
  ],
});

describe('collect chargebacks: the match cascade', () => {
  it('finds orders sent to the sandbox by acquirer id, order reference and card key, and stops at two', async () => {
    const sandbox = await testSandbox({
      slowMs: 300,
    });
    const dir = tempDir('collect-cascade-');
    const state = join(dir, 'state');
    const at = ['--base-url', sandbox.url, '--state', state];
    writeFileSync(
      join(dir, 'orders.ndjson'),
      nd(
        order('C-1', '1808', 129.9, '2024-04-03T02:30:00Z', 'TX-1'),
        order('C-2', '2222', 50, '2024-04-05T10:00:00Z'),
        order('C-3', '3333', 70, '2024-04-06T10:00:00Z'),
        order('C-4', '3333', 70, '2024-04-07T10:00:00Z'),
      ),
    );
    expect((await runCli(['order', join(dir, 'orders.ndjson'), ...at], { env })).code).toBe(0);
    writeFileSync(
      join(dir, 'report.csv'),
      [
        'acquirer_id,order_id,card_last_four,amount,sale_date,network,reason_code',
        'TX-1,,,,,visa,10.4', // 2: acquirer id
        ',C-2,,,,visa,10.4', // 3: order reference
        ',,1808,129.90,2024-04-04,visa,10.4', // 4: card key, a day after the creation
        ',,2222,50.00,2024-04-07,visa,10.4', // 5: two days off: unmatched
        ',,3333,70.00,2024-04-06,visa,10.4', // 6: C-3 that day and C-4 a day later: ambiguous
        ',,2222,50.01,2024-04-05,visa,10.4', // 7: a cent off: unmatched
      ].join('\n'),
    );
    const result = await runCli(
      ['chargebacks', join(dir, 'report.csv'), ...at, '--dry-run', '--format', 'json'],
      { env },
    );
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as Json;
    expect(json.chargebacks.rows.map((r) => [r.line, r.outcome, r.order_id, r.matched_by])).toEqual([
      [2, 'matched', 'C-1', 'acquirer_id'],
      [3, 'matched', 'C-2', 'order_id'],
      [4, 'matched', 'C-1', 'composite'],
      [5, 'unmatched', undefined, undefined],
      [6, 'ambiguous', undefined, undefined],
      [7, 'unmatched', undefined, undefined],
    ]);
    expect(json.chargebacks.rows[4]!.issues.map((i) => i.code)).toEqual(['ambiguous-composite']);
    expect(json.chargebacks.matched_by).toEqual({ acquirer_id: 1, order_id: 1, arn: 0, composite: 1 });
    const pretty = await runCli(['chargebacks', join(dir, 'report.csv'), ...at, '--dry-run'], { env });
    expect(pretty.stdout).toContain('matched by acquirer_id 1, order_id 1, arn 0, composite 1');
  });

  it('reads --orders through --orders-map: the ARN and the authorisation key from the platform export', async () => {
    const dir = tempDir('collect-cascade-');
    writeFileSync(
      join(dir, 'pedidos.csv'),
      [
        'pedido;criado;valor;arn;autorizacao;nsu',
        'P-1;02/04/2024 10:00;129,90;74537604221431003881865;AB12;000777',
        'P-2;03/04/2024 22:30;10,00;74537604221431003881999;CD34;000888',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'export.yaml'),
      [
        'version: 1',
        'zone: America/Sao_Paulo',
        'csv: { delimiter: ";" }',
        'records:',
        '  - endpoint: order',
        '    fields:',
        '      id: pedido',
        '      creation_datetime: { column: criado, datetime: "dd/MM/yyyy HH:mm" }',
        '      payments.0.id: pedido',
        '      payments.0.value: { column: valor, number: decimal-comma }',
        '      payments.0.custom_data.arn: arn',
        '      payments.0.custom_data.authorization_code: autorizacao',
        '      payments.0.custom_data.nsu: nsu',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'report.ndjson'),
      nd(
        { arn: '74537604221431003881865', network: 'visa', reason_code: '10.4' },
        // 22:30 in São Paulo is the 4th in UTC; the sale the 5th is a day off.
        {
          authorization_code: 'cd34',
          nsu: '888',
          sale_date: '2024-04-05',
          network: 'visa',
          reason_code: '10.4',
        },
        { arn: '74537604221431003889999', network: 'visa', reason_code: '10.4' },
      ),
    );
    const result = await runCli(
      [
        'chargebacks',
        join(dir, 'report.ndjson'),
        '--orders',
        join(dir, 'pedidos.csv'),
        '--orders-map',
        join(dir, 'export.yaml'),
        '--no-state',
        '--dry-run',
        '--format',
        'json',
      ],
      { env },
    );
    const json = JSON.parse(result.stdout) as Json;
    expect(json.chargebacks.rows.map((r) => [r.outcome, r.order_id, r.matched_by])).toEqual([
      ['matched', 'P-1', 'arn'],
      ['matched', 'P-2', 'composite'],
      ['unmatched', undefined, undefined],
    ]);
    expect(json.chargebacks.rows[2]!.issues.map((i) => i.code)).toEqual(['unknown-arn']);
  });

  it('refuses --orders-map without --orders', async () => {
    const result = await runCli(['chargebacks', 'r.csv', '--orders-map', 'm.yaml', '--dry-run'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--orders-map needs --orders FILE');
  });
});

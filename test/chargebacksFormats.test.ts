import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { startTestSandbox } from './helpers/sandbox.js';

const env = { COLLECT_API_KEY: 'k-chargebacks-formats' };
const dir = 'fixtures/chargebacks/formats';

interface Row {
  line: number | null;
  index: number;
  outcome: string;
  kind?: string;
  order_id?: string;
  category?: string;
  issues: { code: string; message: string }[];
}
interface Json {
  chargebacks: {
    files: { file: string; format: string; rows: number; notes?: { code: string }[] }[];
    counts: Record<string, number>;
    marks: number;
    rows: Row[];
  };
}

/** One file per format of source-files.md, each row as [line or index, outcome, kind or order, category]. */
const expected: Record<
  string,
  { format: string; rows: [number | null, string, (string | undefined)?, string?][]; notes?: string[] }
> = {
  'dispute_report_2024_05_02.csv': {
    format: 'adyen-dispute-report',
    notes: ['ignored-columns'],
    rows: [
      [2, 'matched', 'ORD-F01', 'fraud'],
      [3, 'fraud-notice', undefined, 'fraud'], // no code: the reason name "Fraud"
      [4, 'not-chargeback', 'rfi', 'unknown'], // free text "Info"
      [5, 'not-chargeback', 'reversal', 'unknown'],
      [6, 'not-chargeback', 'pre-arbitration', 'unknown'],
      [7, 'invalid'], // Psp Reference 8.815E+15: mangled-id
      [8, 'unmatched', undefined, 'fraud'],
      [9, 'matched', 'ORD-F18', 'fraud'], // the card key, on a Payment Date read in CEST
    ],
  },
  'checkout-disputes.json': {
    format: 'checkout-disputes-api',
    rows: [
      [null, 'matched', 'ORD-F03', 'fraud'],
      [null, 'not-chargeback', 'pre-arbitration', 'fraud'],
    ],
  },
  'stripe-disputes.json': {
    format: 'stripe-disputes',
    rows: [
      [null, 'matched', 'ORD-F04', 'processing'], // Visa 12.6.1
      [null, 'matched', 'ORD-F05', 'fraud'], // Visa 33
      [null, 'not-chargeback', 'rfi', 'fraud'],
      [null, 'not-chargeback', 'prevented', 'unknown'],
    ],
  },
  'early-fraud-warnings.json': {
    format: 'stripe-early-fraud-warnings',
    rows: [[null, 'fraud-notice', undefined, 'unknown']],
  },
  'braintree-disputes.csv': {
    format: 'braintree-disputes-csv',
    notes: ['ignored-columns'],
    rows: [
      [2, 'matched', 'ORD-F07', 'fraud'],
      [3, 'not-chargeback', 'rfi', 'unknown'],
      [4, 'not-chargeback', 'pre-arbitration', 'fraud'],
    ],
  },
  'worldpay-chargebacks.xml': {
    format: 'worldpay-cnp-chargebacks',
    rows: [
      [null, 'matched', 'ORD-F08', 'fraud'],
      [null, 'not-chargeback', 'second-presentment'],
      [null, 'fraud-notice'],
    ],
  },
  'DDR-20240502.01.001.CSV': {
    format: 'paypal-case-report',
    notes: ['ignored-columns'],
    rows: [
      [5, 'matched', 'ORD-F09', 'fraud'],
      [6, 'not-chargeback', 'claim', 'unknown'],
    ],
  },
  'DisputeDetailsV2.csv': {
    format: 'jpmorgan-dispute-details',
    notes: ['ignored-columns'],
    rows: [
      [4, 'matched', 'ORD-F10', 'processing'],
      [5, 'invalid'], // ARN 2.47E+22: mangled-id
      [6, 'not-chargeback', 'adjustment', 'unknown'],
    ],
  },
  'cybersource-chargebacks.csv': {
    format: 'cybersource-chargeback-report',
    rows: [
      [3, 'matched', 'ORD-F11', 'fraud'],
      [4, 'not-chargeback', 'rfi', 'fraud'],
    ],
  },
  'cielo-chargebacks.json': {
    format: 'cielo-chargebacks',
    rows: [
      [null, 'matched', 'ORD-F12', 'unknown'], // Elo 71: no shipped Elo codes
      [null, 'not-chargeback', 'pre-arbitration', 'fraud'],
      [null, 'matched', 'ORD-F19', 'unknown'], // Hipercard 83: no shipped Hipercard codes, not Visa's 83
    ],
  },
  'pagarme-chargebacks.json': {
    format: 'pagarme-chargebacks',
    rows: [[null, 'matched', 'ORD-F13', 'fraud']],
  },
  'asaas-payments.json': { format: 'asaas-payments', rows: [[null, 'matched', 'ORD-F14', 'fraud']] },
  'ebanx-chargebacks.csv': {
    format: 'ebanx-chargebacks',
    notes: ['ignored-columns'],
    rows: [[2, 'matched', 'ORD-F15', 'fraud']],
  },
  '20240502Z_chargeback.consolidated.csv.gz': {
    format: 'ppro-chargebacks',
    notes: ['ignored-columns'],
    rows: [[2, 'matched', 'ORD-F16']],
  },
  'm1-daily-2024-1-volume-per-chargeback.csv': {
    format: 'ppro-volume-per-chargeback',
    notes: ['ignored-columns'],
    rows: [[2, 'matched', 'ORD-F17', 'fraud']], // SEPA MD01 NoMandate
  },
};

describe('collect chargebacks: the acquirers’ own formats, read with no mapping (source-files.md part A)', () => {
  let at: string[] = [];
  beforeAll(async () => {
    const sandbox = await startTestSandbox({ slowMs: 300 });
    const state = tempDir('collect-cb-formats-');
    at = ['--base-url', sandbox.url, '--state', state];
    expect((await runCli(['order', `${dir}/orders.ndjson`, ...at], { env })).code).toBe(0);
    return sandbox.close;
  });

  /** The run's format, every row's outcome, the counts, one mark per order, the exit code: as `want` says. */
  const expectRows = (run: { stdout: string; code: number }, want: (typeof expected)[string]) => {
    const { chargebacks } = JSON.parse(run.stdout) as Json;
    expect(chargebacks.files).toHaveLength(1);
    expect(chargebacks.files[0]).toMatchObject({ format: want.format, rows: want.rows.length });
    expect((chargebacks.files[0]!.notes ?? []).map((n) => n.code)).toEqual(want.notes ?? []);
    const got = chargebacks.rows.map((r) => [
      r.line,
      r.outcome,
      r.kind ?? (r.outcome === 'matched' ? r.order_id : undefined) ?? null,
      r.category ?? null,
    ]);
    expect(got).toEqual(
      want.rows.map(([line, outcome, second, category]) => [line, outcome, second ?? null, category ?? null]),
    );
    const counts = Object.fromEntries(Object.entries(chargebacks.counts).filter(([, n]) => n > 0));
    const tally: Record<string, number> = {};
    for (const [, outcome] of want.rows) tally[outcome] = (tally[outcome] ?? 0) + 1;
    expect(counts).toEqual(tally);
    const orders = new Set(want.rows.filter((r) => r[1] === 'matched').map((r) => r[2]));
    expect(chargebacks.marks).toBe(orders.size);
    const needsHuman = want.rows.some((r) => ['invalid', 'unmatched'].includes(r[1]));
    expect(run.code).toBe(needsHuman ? 1 : 0);
  };

  for (const [file, want] of Object.entries(expected))
    it(`reads ${want.format} (${file}) against the orders sent to the sandbox: every row's outcome`, async () => {
      const args = ['chargebacks', `${dir}/${file}`, ...at, '--dry-run', '--format', 'json'];
      expectRows(await runCli(args, { env }), want);
    });

  // The same orders known only from the platform's own export, read through a mapping (A.0.8): no state.
  const exported = ['--orders', `${dir}/platform-orders.csv`, '--orders-map', `${dir}/platform-orders.yaml`];
  for (const [file, want] of Object.entries(expected))
    it(`reads ${want.format} (${file}) against --orders with --orders-map: the same outcomes`, async () => {
      const args = [
        'chargebacks',
        `${dir}/${file}`,
        ...exported,
        '--no-state',
        '--dry-run',
        '--format',
        'json',
      ];
      expectRows(await runCli(args, { env }), want);
    });

  it("reads Adyen's local times in the zone its next column names: CEST, not UTC", async () => {
    const report = readFileSync(`${dir}/dispute_report_2024_05_02.csv`, 'utf8');
    const last = report.trim().split('\n').at(-1)!;
    const rowOf = async (text: string) => {
      const file = join(tempDir('collect-cb-zone-'), 'dispute_report_2024_05_03.csv');
      writeFileSync(file, text);
      const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
      return (JSON.parse(run.stdout) as Json).chargebacks.rows[0] as Row & { matched_by?: string };
    };
    const header = report.split('\n')[0]!;
    // 2024-05-03 00:30 CEST is 2024-05-02 22:30 UTC: one day after the order (2024-05-01 23:00 UTC).
    expect(await rowOf(`${header}\n${last}\n`)).toMatchObject({
      outcome: 'matched',
      matched_by: 'composite',
    });
    // Read as UTC, the sale would be two days after the order: no card key finds it.
    const asUtc = last.replace('2024-05-03 00:30:00,CEST', '2024-05-03 00:30:00,UTC');
    expect(await rowOf(`${header}\n${asUtc}\n`)).toMatchObject({ outcome: 'unmatched' });
  });

  it('ships no Elo or Hipercard codes (R.4): unknown, a warning naming it, till --reason-categories', async () => {
    const file = `${dir}/cielo-chargebacks.json`;
    const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
    const { rows } = (JSON.parse(run.stdout) as Json).chargebacks;
    const warned = (row: Row) => row.issues.map((i) => [i.code, i.message]);
    expect([rows[0]!, rows[2]!].map(warned)).toEqual([
      [['unknown-reason-code', 'elo reason code "71" is in no category collect knows: category unknown']],
      [
        [
          'unknown-reason-code',
          'hipercard reason code "83" is in no category collect knows: category unknown',
        ],
      ],
    ]);
    const table = join(tempDir('collect-cb-elo-'), 'codes.csv');
    writeFileSync(table, 'network,reason_code,category,label\nelo,71,fraud,\nhipercard,83,fraud,\n');
    const own = await runCli(
      ['chargebacks', file, ...at, '--reason-categories', table, '--dry-run', '--format', 'json'],
      { env },
    );
    const categorised = (JSON.parse(own.stdout) as Json).chargebacks.rows;
    expect(categorised.map((r) => [r.category, r.issues.length])).toEqual([
      ['fraud', 0],
      ['fraud', 0],
      ['fraud', 0],
    ]);
  });

  it("shows each row's network, reason code, amount and currency as read (A.0.9): minor units divided", async () => {
    const file = `${dir}/checkout-disputes.json`;
    const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
    const rows = (JSON.parse(run.stdout) as Json).chargebacks.rows as unknown as Record<string, unknown>[];
    const shown = { network: 'visa', reason_code: '10.4', amount: 81.5, currency: 'GBP' };
    expect(rows).toMatchObject([
      { outcome: 'matched', ...shown },
      { outcome: 'not-chargeback', kind: 'pre-arbitration', ...shown },
    ]);
  });

  it('never lets a fraud notice mark its order: a chargeback in a later run is sent, then already-marked', async () => {
    const json = async (args: string[]) => {
      const run = await runCli(['chargebacks', ...args, ...at, '--yes', '--format', 'json'], { env });
      return { code: run.code, ...(JSON.parse(run.stdout) as Json).chargebacks };
    };
    const notice = await json([`${dir}/early-fraud-warnings.json`]);
    expect(notice).toMatchObject({ code: 0, marks: 0, rows: [{ outcome: 'fraud-notice' }] });
    const file = join(tempDir('collect-cb-later-'), 'report.csv');
    writeFileSync(file, 'acquirer_id,network,reason_code\nch_efw1,visa,10.4\n');
    const later = await json([file]);
    expect(later).toMatchObject({ code: 0, marks: 1, rows: [{ outcome: 'matched', order_id: 'ORD-F06' }] });
    expect((await json([file])).rows).toMatchObject([{ outcome: 'already-marked', order_id: 'ORD-F06' }]);
  });

  it('flags damaged ids as mangled-id and writes them to --rejects with the fix', async () => {
    const rejects = join(tempDir('collect-cb-rej-'), 'fix.csv');
    const run = await runCli(
      [
        'chargebacks',
        `${dir}/DisputeDetailsV2.csv`,
        ...at,
        '--dry-run',
        '--format',
        'json',
        '--rejects',
        rejects,
      ],
      { env },
    );
    const row = (JSON.parse(run.stdout) as Json).chargebacks.rows[1]!;
    expect(row.issues.map((i) => i.code)).toEqual(['mangled-id']);
    const written = readFileSync(rejects, 'utf8');
    expect(written).toContain('2.47E+22');
    expect(written).toContain('re-export the report as text');
  });

  it('lists the formats: --formats names each preset, what it reads, its signature and its file', async () => {
    const run = await runCli(['chargebacks', '--formats', '--format', 'json']);
    expect(run.code).toBe(0);
    const { formats } = JSON.parse(run.stdout) as {
      formats: { name: string; reads: string; file: string }[];
    };
    expect(formats.map((f) => f.name).sort()).toEqual(
      [...new Set(Object.values(expected).map((e) => e.format))].sort(),
    );
    expect(formats.find((f) => f.name === 'worldpay-cnp-chargebacks')).toMatchObject({
      reads: 'xml',
      file: 'presets/chargebacks/worldpay-cnp-chargebacks.yaml',
    });
    const pretty = await runCli(['chargebacks', '--formats']);
    expect(pretty.stdout).toContain('adyen-dispute-report  CSV');
  });

  it('stops with exit 2 on a file no format fits, naming its columns, the closest format and --map', async () => {
    const scratch = tempDir('collect-cb-nofit-');
    const near = join(scratch, 'disputes.csv');
    writeFileSync(near, 'Psp Reference,Merchant Reference,Amount\nX1,ORD-1,10\n');
    const run = await runCli(['chargebacks', near, ...at, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"Psp Reference", "Merchant Reference", "Amount"');
    expect(run.stderr).toContain('closest format is adyen-dispute-report (2 of its 4 signature columns)');
    expect(run.stderr).toContain('--map FILE');
    const checkout = join(scratch, 'disputes_ent_20240501_20240502_1.csv');
    writeFileSync(
      checkout,
      'Dispute ID,Dispute Issue Date UTC,Dispute Created Date UTC,Client Name,Dispute Indicator\n' +
        'dsp_1,2024-05-01,2024-05-01,Shop,ADJM\n',
    );
    const known = await runCli(['chargebacks', checkout, ...at, '--dry-run']);
    expect(known.code).toBe(2);
    expect(known.stderr).toContain('Checkout.com Disputes Report');
  });

  it(
    "takes a report in collect's own columns with an extra column: one ignored-columns note, no " +
      'invalid row',
    async () => {
      const scratch = tempDir('collect-cb-extra-');
      const file = join(scratch, 'report.csv');
      writeFileSync(file, 'acquirer_id,network,reason_code,our_note\nADY0000000000001,visa,10.4,x\n');
      const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
      const { chargebacks } = JSON.parse(run.stdout) as Json;
      expect(chargebacks.files).toEqual([
        {
          file,
          format: 'collect',
          rows: 1,
          notes: [{ code: 'ignored-columns', message: `${file}: the column "our_note" is not read` }],
        },
      ]);
      expect(chargebacks.rows.map((r) => r.outcome)).toEqual(['matched']);
      expect(run.code).toBe(0);
    },
  );

  it('reads a TSV, its header in capitals and its columns reordered, and gzip its name does not announce', async () => {
    const scratch = tempDir('collect-cb-tsv-');
    const [head, ...rows] = readFileSync(`${dir}/braintree-disputes.csv`, 'utf8').trim().split('\n');
    const order = (line: string) => line.split(',').reverse().join('\t');
    const tsv = join(scratch, 'disputes.tsv');
    writeFileSync(tsv, [order(head!.toUpperCase()), ...rows.map(order)].join('\n'));
    const zipped = join(scratch, 'volume-per-chargeback.csv');
    writeFileSync(zipped, gzipSync(readFileSync(`${dir}/m1-daily-2024-1-volume-per-chargeback.csv`)));
    for (const [file, fixture] of [
      [tsv, 'braintree-disputes.csv'],
      [zipped, 'm1-daily-2024-1-volume-per-chargeback.csv'],
    ] as const) {
      const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
      expectRows(run, expected[fixture]!);
    }
  });

  it('notes a PayPal trailer at odds with its rows and a file two formats fit; one pretty line a file', async () => {
    const scratch = tempDir('collect-cb-notes-');
    const cut = join(scratch, 'DDR-20240502.01.002.CSV');
    writeFileSync(
      cut,
      readFileSync(`${dir}/DDR-20240502.01.001.CSV`, 'utf8').replace('"SF","2"', '"SF","3"'),
    );
    const both = join(scratch, 'both.csv');
    writeFileSync(
      both,
      'Psp Reference,Merchant Reference,Record Type,Dispute PSP Reference,CBID,TXID,MERCHANTTXID\n' +
        'ADY0000000000001,ORD-F01,Chargeback,D1,CB1,5500001,ORD-F16\n',
    );
    const args = ['chargebacks', cut, both, ...at, '--dry-run'];
    const { files } = (JSON.parse((await runCli([...args, '--format', 'json'], { env })).stdout) as Json)
      .chargebacks;
    expect(files.map((f) => [f.format, f.rows, (f.notes ?? []).map((n) => n.code)])).toEqual([
      ['paypal-case-report', 2, ['ignored-columns', 'row-count-mismatch']],
      ['adyen-dispute-report', 1, ['ignored-columns', 'format-also-fits']],
    ]);
    const pretty = (await runCli(args, { env })).stdout;
    expect(pretty).toContain(`${cut}: paypal-case-report, 2 rows`);
    expect(pretty).toContain('the trailer declares 3 rows, 2 were read');
    expect(pretty).toContain(`${both}: adyen-dispute-report, 1 row\n`);
    expect(pretty).toContain('fits ppro-chargebacks too; read as adyen-dispute-report');
  });

  it('takes a mapped report with an extra column: one ignored-columns note, the same outcomes', async () => {
    const outcomes = async (file: string) => {
      const args = ['chargebacks', file, '--map', 'fixtures/chargebacks/acquirer.yaml', ...at, '--dry-run'];
      const { chargebacks } = JSON.parse(
        (await runCli([...args, '--format', 'json'], { env })).stdout,
      ) as Json;
      return { notes: chargebacks.files[0]!.notes, outcomes: chargebacks.rows.map((r) => r.outcome) };
    };
    const plain = await outcomes('fixtures/chargebacks/report.csv');
    const extra = join(tempDir('collect-cb-mapped-extra-'), 'report.csv');
    const lines = readFileSync('fixtures/chargebacks/report.csv', 'utf8').trim().split('\n');
    writeFileSync(extra, lines.map((line, i) => `${line},${i === 0 ? 'observacao' : 'x'}`).join('\n'));
    expect(await outcomes(extra)).toEqual({
      notes: [{ code: 'ignored-columns', message: expect.stringContaining('"observacao"') as unknown }],
      outcomes: plain.outcomes,
    });
    expect(plain.notes).toBeUndefined();
  });

  it(
    'reads a preset copied and changed by the user through --map (format mapping): PayPal claims ' +
      'counted as chargebacks',
    async () => {
      const scratch = tempDir('collect-cb-own-');
      const own = join(scratch, 'paypal-claims.yaml');
      const shipped = readFileSync('presets/chargebacks/paypal-case-report.yaml', 'utf8');
      expect(shipped).toContain('Claim: claim');
      writeFileSync(own, shipped.replace('Claim: claim', 'Claim: chargeback'));
      const file = `${dir}/DDR-20240502.01.001.CSV`;
      const run = await runCli(['chargebacks', file, '--map', own, ...at, '--dry-run', '--format', 'json'], {
        env,
      });
      const { chargebacks } = JSON.parse(run.stdout) as Json;
      expect(chargebacks.files).toMatchObject([{ file, format: 'mapping', rows: 2 }]);
      expect(chargebacks.rows.map((r) => [r.outcome, r.order_id])).toEqual([
        ['matched', 'ORD-F09'],
        ['matched', 'ORD-F09'],
      ]);
      expect(chargebacks.marks).toBe(1);
    },
  );

  it("flags a mangled id in collect's own columns too: mangled-id, never matched as text", async () => {
    const scratch = tempDir('collect-cb-own-mangled-');
    const file = join(scratch, 'report.csv');
    writeFileSync(
      file,
      'acquirer_id,network,reason_code,arn\n2.47E+22,visa,10.4,\n900000000001.0,visa,10.4,\n',
    );
    const run = await runCli(['chargebacks', file, ...at, '--dry-run', '--format', 'json'], { env });
    const { chargebacks } = JSON.parse(run.stdout) as Json;
    expect(chargebacks.rows.map((r) => [r.outcome, r.issues.map((i) => i.code)])).toEqual([
      ['invalid', ['mangled-id']],
      ['invalid', ['mangled-id']],
    ]);
    expect(run.code).toBe(1);
  });
});

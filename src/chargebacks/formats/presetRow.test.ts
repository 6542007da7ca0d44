import { describe, expect, it } from 'vitest';
import { csvItems, treeItems } from './presetItems.js';
import { presetRow } from './presetRow.js';
import { parsePreset } from './presetSpec.js';
import { shippedPresets } from './loadPresets.js';

const preset = parsePreset(
  {
    version: 1,
    records: [
      {
        endpoint: 'chargeback',
        format: 'test-preset',
        recognise: { csv: ['Ref', 'Type'] },
        types: {
          column: 'Type',
          values: {
            Chargeback: 'chargeback',
            'Pre-Arbitration': 'pre-arbitration',
            NotificationOfFraud: 'fraud-notice',
          },
          words: { retrieval: 'rfi' },
          empty: { 'CB Code': 'chargeback' },
        },
        fields: {
          acquirer_id: ['Ref', 'Other Ref'],
          arn: 'ARN',
          network: 'Brand',
          reason_code: 'CB Code',
          amount: { column: 'Amount', 'minor-units': true },
          currency: 'Currency',
          card_last_four: { column: 'PAN', 'last-four': true },
          received_at: { column: 'Created', 'unix-seconds': true },
        },
      },
    ],
  },
  'test.yaml',
);

const header = 'Ref,Other Ref,Type,ARN,Brand,CB Code,Amount,Currency,PAN,Created';
const rowsOf = (...lines: string[]) =>
  csvItems([header, ...lines].join('\n'), ',', preset).items.map((item) => presetRow(item, preset));

describe('presetRow', () => {
  it(
    'classes rows by their type, folded; by words; by a filled code when the type is empty; else ' +
      'unknown-row-type',
    () => {
      const rows = rowsOf(
        'R1,,PRE_ARBITRATION,,VI,,,,,',
        'R1,,notificationoffraud,,VI,,,,,',
        'R1,,Retrieval Request,,VI,,,,,',
        'R1,,,,VI,10.4,,,,',
        'R1,,Settlement,,VI,,,,,',
      );
      expect(rows.map((r) => [r.rowClass, r.kind])).toEqual([
        ['not-chargeback', 'pre-arbitration'],
        ['fraud-notice', undefined],
        ['not-chargeback', 'rfi'],
        ['chargeback', undefined],
        ['invalid', undefined],
      ]);
      expect(rows[4]!.issues[0]).toMatchObject({ code: 'unknown-row-type', value: 'Settlement' });
    },
  );

  it(
    'reads values: candidates in order, minor units by the currency, signs dropped, last four, Unix ' +
      'seconds, networks',
    () => {
      const [gbp, jpy, kwd] = rowsOf(
        ',pay_2,Chargeback,,MC,4837,-8150,gbp,516292******1808,1714557600',
        'R3,,Chargeback,,VI,10.4,500,JPY,,',
        'R4,,Chargeback,,AX,F29,1234,KWD,,',
      );
      expect(gbp!.row).toEqual({
        acquirer_id: 'pay_2',
        network: 'mastercard',
        reason_code: '4837',
        amount: 81.5,
        currency: 'GBP',
        card_last_four: '1808',
        received_at: '2024-05-01T10:00:00Z',
      });
      expect(jpy!.row?.amount).toBe(500);
      expect(kwd!.row?.amount).toBe(1.234);
    },
  );

  it('makes a chargeback with a damaged key invalid (mangled-id), not a row of another class', () => {
    const [arn, sci, rfi] = rowsOf(
      'R1,,Chargeback,2.47E+22,VI,10.4,,,,',
      '8.815E+15,,Chargeback,,VI,10.4,,,,',
      '8.815E+15,,Retrieval,,VI,,,,,',
    );
    expect([arn!.rowClass, arn!.issues.map((i) => i.code)]).toEqual(['invalid', ['mangled-id']]);
    expect([sci!.rowClass, sci!.issues.map((i) => i.code)]).toEqual(['invalid', ['mangled-id']]);
    expect(rfi!.rowClass).toBe('not-chargeback');
  });

  it('reads JSON items by dotted paths, numbers as their digits', () => {
    const json = parsePreset(
      {
        records: [
          {
            endpoint: 'chargeback',
            recognise: { json: ['tx'] },
            fields: { acquirer_id: 'tx', nsu: 'details.nsu', currency: { value: 'BRL' } },
          },
        ],
      },
      'j.yaml',
    );
    const [item] = treeItems([{ tx: 100200300, details: { nsu: 2947 } }], json).items;
    expect(presetRow(item!, json).row).toEqual({ acquirer_id: '100200300', nsu: '2947', currency: 'BRL' });
  });

  it("writes dates by the preset's patterns, and keeps a value that fits none with an invalid-date warning", () => {
    const dated = parsePreset(
      {
        records: [
          {
            endpoint: 'chargeback',
            recognise: { csv: ['Ref'] },
            fields: { acquirer_id: 'Ref', sale_date: { column: 'Sold', date: ['M/d/yyyy'] } },
          },
        ],
      },
      'd.yaml',
    );
    const [good, bad] = csvItems('Ref,Sold\nR1,4/1/2024\nR2,00:00.0\n', ',', dated).items.map((i) =>
      presetRow(i, dated),
    );
    expect(good!.row?.sale_date).toBe('2024-04-01');
    expect([bad!.row?.sale_date, bad!.issues.map((i) => i.code)]).toEqual(['00:00.0', ['invalid-date']]);
  });

  it("reads Adyen's dates in their TimeZone column's zone (A.1), an unknown zone kept local with a warning", () => {
    const adyen = shippedPresets().find((p) => p.name === 'adyen-dispute-report')!;
    const csv = [
      'Psp Reference,Merchant Reference,Record Type,Dispute PSP Reference,Dispute Date,Dispute Date TimeZone,' +
        'Record Date,Record Date TimeZone,Payment Date,Payment Date TimeZone',
      'ADY1,O1,Chargeback,D1,2024-05-02 00:30:00,CEST,2024-05-01 09:00:00,CET,2024-04-30 23:30:00,CET',
      'ADY2,O2,Chargeback,D2,,,2024-01-10 00:30:00,CET,,',
      'ADY3,O3,Chargeback,D3,2024-01-10 00:30:00,XYZ,,,,',
    ].join('\n');
    const [both, record, unknown] = csvItems(csv, ',', adyen).items.map((i) => presetRow(i, adyen));
    expect(both!.row).toMatchObject({
      received_at: '2024-05-01T22:30:00Z',
      sale_date: '2024-04-30T22:30:00Z',
    });
    expect(record!.row?.received_at).toBe('2024-01-09T23:30:00Z');
    expect(unknown!.row?.received_at).toBe('2024-01-10T00:30:00');
    expect(unknown!.issues.map((i) => [i.code, i.message])).toEqual([
      ['invalid-date', 'received_at: zone "XYZ" is none collect knows: kept as local time'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { shippedPresets } from './loadPresets.js';
import { recogniseReport } from './recogniseReport.js';

const presets = shippedPresets();
const formatOf = (text: string) => recogniseReport('f', text, presets).format;

describe('recogniseReport', () => {
  it("takes collect's own columns first, whatever else the header holds", () => {
    expect(formatOf('acquirer_id,Psp Reference,Merchant Reference,Record Type,Dispute PSP Reference\n')).toBe(
      'collect',
    );
  });

  it('finds a header in any case, with a byte-order mark, quotes, semicolons, and preamble lines before it', () => {
    expect(
      formatOf(
        '\uFEFF"PSP REFERENCE";merchant  reference;Record Type;Dispute PSP Reference\nA;B;Chargeback;D\n',
      ),
    ).toBe('adyen-dispute-report');
    const cyber = recogniseReport(
      'f',
      'Chargeback Report,1.0,range,merchant\n\nRequestId,MerchantReferenceNumber,CBReasonCode,CBAmount\n1,O,83,1\n',
      presets,
    );
    expect(cyber.format).toBe('cybersource-chargeback-report');
    expect('read' in cyber && cyber.read.items.map((i) => i.line)).toEqual([4]);
  });

  it('tells JSON presets apart by the values their items carry, and reads a saved webhook as a list of one', () => {
    const item = (object: string) => ({ id: 'x', object, charge: 'ch_1' });
    expect(formatOf(JSON.stringify([item('dispute')]))).toBe('stripe-disputes');
    expect(formatOf(JSON.stringify({ object: 'list', data: [item('radar.early_fraud_warning')] }))).toBe(
      'stripe-early-fraud-warnings',
    );
    const webhook = {
      type: 'dispute_evidence_required',
      data: { id: 'dsp_1', payment_id: 'pay_1', received_on: 'x' },
    };
    const read = recogniseReport('f', JSON.stringify(webhook), presets);
    expect(read.format).toBe('checkout-disputes-api');
    expect('read' in read && read.read.items).toHaveLength(1);
  });

  it('reads XML by its root element, with or without its namespace', () => {
    const xml = (ns: string) =>
      `<chargebackRetrievalResponse${ns}` +
      `><chargebackCase><vantivCnpTxnId>1</vantivCnpTxnId></chargebackCase>` +
      `</chargebackRetrievalResponse>`;
    expect(formatOf(xml(''))).toBe('worldpay-cnp-chargebacks');
    expect(formatOf(xml(' xmlns="http://www.vantivcnp.com/chargebacks"'))).toBe('worldpay-cnp-chargebacks');
    expect(() => formatOf('<other/>')).toThrow(/root element <other>/);
  });

  it('names the closest preset when none fits', () => {
    expect(() => formatOf('CBID,TXID,Amount\n1,2,3\n')).toThrow(
      /closest format is ppro-chargebacks \(2 of its 3/,
    );
    expect(() => formatOf('{"items": [{"a": 1}]}')).toThrow(/top-level keys items/);
  });

  it("skips PayPal's structure lines, keeps the SB rows, and reads the SF count to compare", () => {
    const text = [
      '"RH","2024/05/02"',
      '"FH","01"',
      '"CH","Case type","Case ID","Original transaction ID"',
      '"SB","Chargeback","C1","T1"',
      '"XX","odd"',
      '"SF","3"',
      '"RF","1"',
    ].join('\n');
    const read = recogniseReport('f', text, presets);
    expect(read.format).toBe('paypal-case-report');
    if (!('read' in read)) throw new Error('not a preset');
    expect(read.read.items.map((i) => [i.line, i.unknownType])).toEqual([
      [4, undefined],
      [5, 'XX'],
    ]);
    expect(read.read.declaredRows).toBe(3);
  });

  it("adds up the SF counts of a PayPal report's sections", () => {
    const section = (rows: string[]) => [
      '"SH","2024/05/01"',
      ...rows.map((id) => `"SB","Chargeback","${id}","T1"`),
    ];
    const text = [
      '"RH","2024/05/02"',
      '"CH","Case type","Case ID","Original transaction ID"',
      ...section(['C1']),
      '"SF","1"',
      ...section(['C2', 'C3']),
      '"SF","2"',
    ].join('\n');
    const read = recogniseReport('f', text, presets);
    if (!('read' in read)) throw new Error('not a preset');
    expect([read.read.items.length, read.read.declaredRows]).toEqual([3, 3]);
  });
});

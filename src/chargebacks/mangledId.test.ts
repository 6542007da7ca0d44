import { describe, expect, it } from 'vitest';
import { mangledIds, mangledReason } from './mangledId.js';

const key = (field: string, value: string, csv = true) => ({ field, column: 'Col', value, csv });

describe('mangledReason', () => {
  it('flags scientific notation, a trailing .0 in a CSV cell, a short Visa or Mastercard ARN', () => {
    expect(mangledReason(key('arn', '2.47E+22'), 'visa')).toMatch(/scientific/);
    expect(mangledReason(key('acquirer_id', '5,54E+22'), undefined)).toMatch(/scientific/);
    expect(mangledReason(key('acquirer_id', '8.815E+15'), undefined)).toMatch(/scientific/);
    expect(mangledReason(key('acquirer_id', '21200000820903.0'), undefined)).toMatch(/\.0/);
    expect(mangledReason(key('acquirer_id', '123456.00'), undefined)).toMatch(/\.0/);
    expect(mangledReason(key('arn', '7453760422143100388186'), 'mastercard')).toMatch(/23 digits/);
  });

  it('leaves sound ids alone: 23-digit ARNs, other networks, JSON values, ids with letters', () => {
    expect(mangledReason(key('arn', '74537604221431003881865'), 'visa')).toBeUndefined();
    expect(mangledReason(key('arn', '123456789'), 'nyce')).toBeUndefined();
    expect(mangledReason(key('acquirer_id', '12.0', false), undefined)).toBeUndefined();
    expect(mangledReason(key('acquirer_id', 'pay_E1E2'), undefined)).toBeUndefined();
    expect(mangledReason(key('nsu', '2947'), undefined)).toBeUndefined();
  });

  it('flags a zero-padded NSU that lost its zeros only where a width is declared', () => {
    expect(mangledReason(key('nsu', '57941'), undefined, 6)).toMatch(/leading zeros/);
    expect(mangledReason(key('nsu', '057941'), undefined, 6)).toBeUndefined();
  });
});

describe('mangledIds', () => {
  it('is one error per damaged key, naming the column and the value, with the fix', () => {
    const issues = mangledIds([key('arn', '2.47E+22'), key('order_id', 'ORD-1')], 'visa');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'error', code: 'mangled-id', path: 'arn' });
    expect(issues[0]!.message).toBe(
      'Col 2.47E+22 looks like a number a spreadsheet rewrote in scientific notation',
    );
    expect(issues[0]!.hint).toMatch(/re-export the report as text/);
  });
});

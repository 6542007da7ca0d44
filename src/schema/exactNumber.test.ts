import { describe, expect, it } from 'vitest';
import { inexactNumber } from './exactNumber.js';

describe('inexactNumber', () => {
  it.each([
    '10.50',
    '259.9',
    '0',
    '-0',
    '1e3',
    '1.5E2',
    '123456789012345',
    '9007199254740991',
    '0.1',
    '-42',
    '1e-7',
    '100000000000000000000',
  ])('%s is exact', (text) => {
    expect(inexactNumber(text)).toBeUndefined();
  });

  it('reports a 30-digit amount with the value it would become', () => {
    expect(inexactNumber('123456789012345678901234567890', 'total_paid_value')).toMatchObject({
      severity: 'error',
      code: 'inexact-number',
      path: 'total_paid_value',
      message:
        '123456789012345678901234567890 has more digits than a number keeps: it would be sent as ' +
        '1.2345678901234568e+29',
    });
    expect(inexactNumber('0.10000000000000000555')).toMatchObject({ code: 'inexact-number' });
    expect(inexactNumber('9007199254740993')).toMatchObject({ code: 'inexact-number' });
  });

  it('reports numbers too large or too small for a double', () => {
    expect(inexactNumber('1e400')!.message).toBe(
      '1e400 is too large for a number (it would become Infinity)',
    );
    expect(inexactNumber('-1e400')!.message).toContain('-Infinity');
    expect(inexactNumber('1e-400')!.message).toBe(
      '1e-400 is too small to be represented (it would become 0)',
    );
  });
});

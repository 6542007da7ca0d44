import { describe, expect, it } from 'vitest';
import { reportDate } from './reportDate.js';

describe('reportDate', () => {
  it('writes a bare date as a date, a date-time with an offset as UTC, a local one as it is', () => {
    expect(reportDate('4/1/2024', ['M/d/yyyy'])).toBe('2024-04-01');
    expect(reportDate('2024/05/01 10:00:00 -0700', ['yyyy/MM/dd HH:mm:ss ZZZ'])).toBe('2024-05-01T17:00:00Z');
    expect(reportDate('2024-05-01 10:00:00', ['yyyy-MM-dd HH:mm:ss'])).toBe('2024-05-01T10:00:00');
  });

  it('tries the patterns in order and says when none fits', () => {
    expect(reportDate('2024-04-01', ['M/d/yyyy', 'yyyy-MM-dd'])).toBe('2024-04-01');
    expect(reportDate('00:00.0', ['M/d/yyyy'])).toBeUndefined();
  });
});

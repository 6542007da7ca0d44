import { describe, expect, it } from 'vitest';
import { reportDate } from './reportDate.js';
import { reportZone } from './reportZone.js';

describe('reportDate', () => {
  it('writes a bare date as a date, a date-time with an offset as UTC, a local one as it is', () => {
    expect(reportDate('4/1/2024', ['M/d/yyyy'])).toBe('2024-04-01');
    expect(reportDate('2024/05/01 10:00:00 -0700', ['yyyy/MM/dd HH:mm:ss ZZZ'])).toBe('2024-05-01T17:00:00Z');
    expect(reportDate('2024-05-01 10:00:00', ['yyyy-MM-dd HH:mm:ss'])).toBe('2024-05-01T10:00:00');
  });

  it('writes a local date-time in a named zone as its UTC instant, a bare date in it as the date', () => {
    const cest = reportZone('CEST');
    expect(reportDate('2024-05-03 00:30:00', ['yyyy-MM-dd HH:mm:ss'], cest)).toBe('2024-05-02T22:30:00Z');
    expect(reportDate('2024-05-03', ['yyyy-MM-dd'], cest)).toBe('2024-05-03');
  });

  it('tries the patterns in order and says when none fits', () => {
    expect(reportDate('2024-04-01', ['M/d/yyyy', 'yyyy-MM-dd'])).toBe('2024-04-01');
    expect(reportDate('00:00.0', ['M/d/yyyy'])).toBeUndefined();
  });
});

describe('reportZone', () => {
  const offset = (name: string) => reportZone(name)?.offset(Date.UTC(2024, 0, 15));
  it('reads abbreviations as their fixed offsets, offsets, and IANA names', () => {
    expect([offset('CET'), offset('cest'), offset('PDT'), offset('UTC')]).toEqual([60, 120, -420, 0]);
    expect([offset('+01:00'), offset('UTC-3'), offset('GMT+0530')]).toEqual([60, -180, 330]);
    expect(offset('Europe/Amsterdam')).toBe(60);
    expect(reportZone('Europe/Amsterdam')?.offset(Date.UTC(2024, 6, 15))).toBe(120);
  });

  it('reads no ambiguous abbreviation and no made-up name', () => {
    expect([reportZone('CST'), reportZone('IST'), reportZone('Mars/Olympus'), reportZone('+25:00')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(reportZone('constructor')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { compilePattern, type PatternParser } from './datetimePattern.js';

const parser = (pattern: string) => compilePattern(pattern) as PatternParser;

describe('compilePattern', () => {
  it('reads LDML patterns with one- and two-digit fields', () => {
    expect(parser('M/d/yyyy H:mm')('10/2/2017 10:56')).toEqual({
      year: 2017,
      month: 10,
      day: 2,
      hour: 10,
      minute: 56,
      second: 0,
    });
    expect(parser('dd/MM/yyyy HH:mm:ss')('02/10/2017 08:05:09')).toEqual({
      year: 2017,
      month: 10,
      day: 2,
      hour: 8,
      minute: 5,
      second: 9,
    });
    expect(parser("yyyy-MM-dd'T'HH:mm:ss.SSS")('2017-10-02T10:56:00.123')).toMatchObject({
      hour: 10,
      minute: 56,
    });
    expect(parser('M/d/yy h:mm a')('3/8/18 4:57 PM')).toMatchObject({ year: 2018, hour: 16, minute: 57 });
  });
  it('refuses cells that do not match or are not real dates', () => {
    expect(parser('M/d/yyyy H:mm')('2017-10-02 10:56')).toBeUndefined();
    expect(parser('dd/MM/yyyy')('31/02/2024')).toBeUndefined();
    expect(parser('HH:mm dd/MM/yyyy')('24:00 01/01/2024')).toBeUndefined();
  });
  it('explains patterns it cannot read', () => {
    expect(compilePattern('yyyy-MM-dd QQ')).toMatch(/"Q" is not a pattern letter/);
    expect(compilePattern('HH:mm')).toMatch(/has no year/);
    expect(compilePattern('yyyy-MM-dd hh:mm')).toMatch(/need a \(AM\/PM\)/);
  });
});

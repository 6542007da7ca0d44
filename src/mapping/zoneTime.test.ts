import { describe, expect, it } from 'vitest';
import { formatInstant, isKnownZone, ZoneClock } from './zoneTime.js';

const at = (clock: ZoneClock, year: number, month: number, day: number, hour: number, minute = 0) => {
  const result = clock.toInstant({ year, month, day, hour, minute, second: 0 });
  return result.ok ? formatInstant(result.instant) : result.reason;
};

describe('ZoneClock', () => {
  const saoPaulo = new ZoneClock('America/Sao_Paulo');
  it('writes São Paulo local time as UTC, with and without summer time', () => {
    expect(at(saoPaulo, 2017, 10, 2, 10, 56)).toBe('2017-10-02T13:56:00Z');
    expect(at(saoPaulo, 2017, 11, 20, 8, 38)).toBe('2017-11-20T10:38:00Z');
  });
  it('takes the earlier instant of a time that occurs twice, and refuses one that never occurs', () => {
    expect(at(saoPaulo, 2018, 2, 17, 23, 30)).toBe('2018-02-18T01:30:00Z');
    expect(at(saoPaulo, 2017, 10, 15, 0, 30)).toBe('gap');
  });
  it('knows IANA zones', () => {
    expect(isKnownZone('America/Sao_Paulo')).toBe(true);
    expect(isKnownZone('UTC')).toBe(true);
    expect(isKnownZone('America/Sao_Paul')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { datetimeProblem, datetimeSuggestion } from './datetime.js';

describe('datetimeProblem', () => {
  it('accepts the exact UTC format', () => {
    expect(datetimeProblem('2024-02-29T23:59:59Z')).toBeNull();
  });
  it.each([
    '2024-03-01 14:30:00',
    '2024-03-01T14:30:00',
    '2024-03-01T14:30:00.000Z',
    '2024-03-01T14:30:00+00:00',
    '24-03-01T14:30:00Z',
  ])('rejects the format of %s', (text) => expect(datetimeProblem(text)).toBe('format'));
  it.each([
    '2024-02-30T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '2024-13-01T10:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:60:00Z',
  ])('rejects the impossible instant %s', (text) => expect(datetimeProblem(text)).toBe('calendar'));
});

describe('datetimeSuggestion', () => {
  it('turns near misses into the expected format', () => {
    expect(datetimeSuggestion('2024-03-01 14:30:00')).toBe('2024-03-01T14:30:00Z');
    expect(datetimeSuggestion('2024-03-01T14:30:00.123Z')).toBe('2024-03-01T14:30:00Z');
    expect(datetimeSuggestion('2024-03-01')).toBe('2024-03-01T00:00:00Z');
    expect(datetimeSuggestion('yesterday')).toBeUndefined();
  });
});

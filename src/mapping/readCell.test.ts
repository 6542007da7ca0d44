import { describe, expect, it } from 'vitest';
import { cellReader, readNumber, type CellReader } from './readCell.js';

const reader = (...args: Parameters<typeof cellReader>) => cellReader(...args) as CellReader;

describe('readNumber', () => {
  it.each([
    ['1.234,56', 1234.56],
    ['R$ 1.234,56', 1234.56],
    ['259,90', 259.9],
    ['-12,5', -12.5],
    ['R$ -12,50', -12.5],
    ['10', 10],
    ['BRL 3,00', 3],
  ])('reads %j as decimal-comma', (text, value) => expect(readNumber(text, 'decimal-comma')).toBe(value));
  it.each([
    ['1,234.56', 1234.56],
    ['$1,234.56', 1234.56],
    ['99.9 €', 99.9],
    ['(5.00)', -5],
  ])('reads %j as decimal-point', (text, value) => expect(readNumber(text, 'decimal-point')).toBe(value));
  it.each([['12a'], ['1.2.3,4'], ['abc'], ['1,23.4'], ['']])('refuses %j', (text) =>
    expect(readNumber(text, 'decimal-comma')).toBeUndefined(),
  );
});

describe('cellReader', () => {
  it('converts datetimes in the zone and names the pattern when a cell does not match', () => {
    const read = reader({ datetime: 'M/d/yyyy H:mm' }, 'string', 'America/Sao_Paulo');
    expect(read('10/2/2017 10:56')).toEqual({ ok: true, value: '2017-10-02T13:56:00Z' });
    const bad = read('2017-10-02');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issue.message).toContain('"M/d/yyyy H:mm"');
    expect(!bad.ok && bad.issue.hint).toContain('America/Sao_Paulo');
  });
  it('reads iso instants with any offset', () => {
    const read = reader({ datetime: 'iso' }, 'string', 'UTC');
    expect(read('2024-03-01T10:56:00.5-03:00')).toEqual({ ok: true, value: '2024-03-01T13:56:00Z' });
    expect(read('2024-03-01 10:56')).toMatchObject({ ok: false });
  });
  it('maps values ignoring case and spaces, passes others through, and fills defaults', () => {
    const read = reader({ values: { delivered: 'approved' }, default: 'pending' }, 'string', 'UTC');
    expect(read(' Delivered ')).toEqual({ ok: true, value: 'approved' });
    expect(read('shipped')).toEqual({ ok: true, value: 'shipped' });
    expect(read('  ')).toEqual({ ok: true, value: 'pending' });
    expect(reader({}, 'number', 'UTC')('')).toEqual({ ok: true, absent: true });
  });
  it('reports a malformed number by its style, and converts plain cells by the field kind', () => {
    expect(reader({ number: 'decimal-comma' }, 'number', 'UTC')('12x')).toMatchObject({
      ok: false,
      issue: { code: 'invalid-number' },
    });
    expect(reader({}, 'number', 'UTC')('10.5')).toEqual({ ok: true, value: 10.5 });
  });
  it('says what is wrong with a pattern', () => {
    expect(cellReader({ datetime: 'yyyy-MM-dd QQ' }, 'string', 'UTC')).toMatch(/not a pattern letter/);
  });
});

describe('cellReader: split, match and phone', () => {
  it('splits a cell into trimmed, non-empty texts, for a list field only', () => {
    expect(reader({ split: ',' }, 'string-array', 'UTC')(' A, B ,, C ')).toEqual({
      ok: true,
      value: ['A', 'B', 'C'],
    });
    expect(reader({ split: ',' }, 'string-array', 'UTC')('')).toEqual({ ok: true, absent: true });
    expect(cellReader({ split: ',' }, 'string', 'UTC')).toMatch(/^split makes a list of texts/);
  });

  it('takes a named or numbered group of the first match, then converts it by the field', () => {
    const street = '^(?<name>.+?),?\\s+(?<number>\\d+[A-Za-z]?)\\s*$';
    expect(reader({ match: street, group: 'name' }, 'string', 'UTC')('Rua Augusta, 1500')).toEqual({
      ok: true,
      value: 'Rua Augusta',
    });
    expect(reader({ match: street, group: 'number' }, 'string', 'UTC')('Av. Paulista 1578')).toEqual({
      ok: true,
      value: '1578',
    });
    expect(reader({ match: '(\\d+)x' }, 'integer', 'UTC')('pack 12x')).toEqual({ ok: true, value: 12 });
    expect(reader({ match: '\\d+', number: 'decimal-comma' }, 'number', 'UTC')('R$ 1.234,56')).toEqual({
      ok: true,
      value: 1,
    });
    expect(cellReader({ match: '(a)', group: 2 }, 'string', 'UTC')).toBe(
      'match has 1 group, so group: 2 takes nothing',
    );
    expect(cellReader({ match: '(a)', group: 'b' }, 'string', 'UTC')).toBe('match has no group named "b"');
  });

  it('leaves the field out with a no-match warning naming the pattern and the cell', () => {
    expect(reader({ match: '^(\\D+) (\\d+)$' }, 'string', 'UTC')('Praça da Sé')).toEqual({
      ok: true,
      absent: true,
      issue: expect.objectContaining({
        severity: 'warning',
        code: 'no-match',
        message: '"Praça da Sé" does not match the pattern ^(\\D+) (\\d+)$',
        value: 'Praça da Sé',
      }),
    });
  });

  it('reads phones into the field as digits, or an invalid-phone error', () => {
    expect(reader({ phone: 'national', country: 'BR' }, 'string', 'UTC')('+55 11 99123-4567')).toEqual({
      ok: true,
      value: '11991234567',
    });
    expect(reader({ phone: 'national', country: 'BR' }, 'string', 'UTC')('123')).toMatchObject({
      ok: false,
      issue: { code: 'invalid-phone' },
    });
  });

  it('reads datetime: iso with an offset written as exports write it', () => {
    expect(reader({ datetime: 'iso' }, 'string', 'UTC')('2025-05-11 09:55:16 -0400')).toEqual({
      ok: true,
      value: '2025-05-11T13:55:16Z',
    });
    expect(reader({ datetime: 'iso' }, 'string', 'UTC')('2025-05-11T23:55:16.123+05:30')).toEqual({
      ok: true,
      value: '2025-05-11T18:25:16Z',
    });
  });
});

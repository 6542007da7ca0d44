import { describe, expect, it } from 'vitest';
import { phoneReader } from './readPhone.js';

const read = (part: 'country-code' | 'national' | 'e164', country?: string) =>
  phoneReader(part, country) as (text: string) => unknown;

describe('phoneReader', () => {
  it.each([
    ['+55 11 99123-4567', 'BR', '55', '11991234567'],
    ['(21) 98765-4321', 'BR', '55', '21987654321'],
    ['+55 (11) 99876-5432', 'BR', '55', '11998765432'],
    ['+351 912 345 678', 'BR', '351', '912345678'],
    ['+1.415.555.2671', undefined, '1', '4155552671'],
    ['00 351 21 346 0000', 'PT', '351', '213460000'],
  ])('reads %j (country %s) as %s + %s', (text, country, code, national) => {
    expect(read('country-code', country)(text)).toBe(code);
    expect(read('national', country)(text)).toBe(national);
    expect(read('e164', country)(text)).toBe(`${code}${national}`);
  });

  it('gives invalid-phone naming the cell for what is no valid number', () => {
    for (const text of ['12345', 'call +55 11 99123-4567', '(11) 9123-4567', '98765-4321'])
      expect(read('national', 'BR')(text)).toMatchObject({
        severity: 'error',
        code: 'invalid-phone',
        message: `${JSON.stringify(text)} is not a valid phone number (read as BR when it has no +)`,
      });
    expect(read('national')('98765-4321')).toMatchObject({
      code: 'invalid-phone',
      hint: expect.stringContaining('give country: in the mapping'),
    });
  });

  it('refuses a country without a phone plan as a mistake in the mapping', () => {
    expect(phoneReader('national', 'XX')).toMatch(/country: "XX" is not a two-letter country code/);
  });
});

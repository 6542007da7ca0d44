import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { error, type Issue } from '../core/issue.js';
import type { PhonePart } from './mappingSpec.js';

/** What a phone cell may hold besides digits: spaces, dots, dashes, slashes, parentheses and a leading +. */
const PHONE_TEXT = /^\+?[\d\s.\-/()]+$/;

/**
 * Reads phone cells with libphonenumber-js (its full metadata, so validity is checked by each
 * country's plan, never by hand): the part asked for as digits, or an `invalid-phone` issue.
 * A string is a mistake in the mapping (an unknown country).
 */
export function phoneReader(
  part: PhonePart,
  country: string | undefined,
): ((text: string) => string | Omit<Issue, 'path'>) | string {
  if (country !== undefined && !isSupportedCountry(country))
    return `country: "${country}" is not a two-letter country code with a phone plan (e.g. BR, PT, US)`;
  const defaultCountry = country as CountryCode | undefined;
  return (text) => {
    const trimmed = text.trim();
    const number = PHONE_TEXT.test(trimmed)
      ? parsePhoneNumberFromString(trimmed, defaultCountry ? { defaultCountry } : {})
      : undefined;
    if (!number?.isValid())
      return error(
        'invalid-phone',
        '',
        `${JSON.stringify(text)} is not a valid phone number` +
          `${defaultCountry ? ` (read as ${defaultCountry} when it has no +)` : ''}`,
        {
          value: text,
          hint: defaultCountry
            ? 'write the number with its area code, or with + and its country code (+55 11 99123-4567)'
            : 'write the number with + and its country code (+55 11 99123-4567), or give country: in the mapping',
        },
      );
    if (part === 'country-code') return number.countryCallingCode;
    if (part === 'national') return number.nationalNumber;
    return `${number.countryCallingCode}${number.nationalNumber}`;
  };
}

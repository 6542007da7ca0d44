import { error, type Issue } from '../core/issue.js';

/** A decimal as sign, significant digits and exponent, so that `10.50`, `1.05e1` and `10.5` compare equal. */
function decimal(text: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match) return { negative: false, digits: '', exponent: 0 };
  const [, sign = '', whole = '', fraction = '', power = '0'] = match;
  let digits = whole + fraction;
  let exponent = Number(power) - fraction.length;
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead);
  const trail = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trail);
  exponent += trail;
  return { negative: sign === '-' && digits !== '', digits, exponent: digits === '' ? 0 : exponent };
}

/**
 * Numbers of up to 15 significant digits with a modest exponent always survive as a double:
 * only longer or exponent-written ones need the full check (the check stays off the hot path).
 */
export function mayBeInexact(text: string): boolean {
  return text.length > 15 || text.includes('e') || text.includes('E');
}

/**
 * The problem with a number as written, when the double it becomes is not the same number:
 * too large (`1e400` becomes Infinity), too small (`1e-400` becomes 0), or with more digits than a
 * double keeps (a 30-digit amount is rounded). Undefined when it is exact (`10.50`, `1e3`).
 */
export function inexactNumber(text: string, path = ''): Issue | undefined {
  const value = Number(text);
  const written = decimal(text);
  if (!Number.isFinite(value)) {
    return error(
      'inexact-number',
      path,
      `${text} is too large for a number (it would become ${value > 0 ? '' : '-'}Infinity)`,
      {
        value: text,
        hint: 'give the amount as a plain decimal such as 1234.56; check the export for a broken cell',
      },
    );
  }
  const kept = decimal(String(value));
  if (
    written.digits === kept.digits &&
    written.exponent === kept.exponent &&
    written.negative === kept.negative
  )
    return undefined;
  if (value === 0) {
    return error('inexact-number', path, `${text} is too small to be represented (it would become 0)`, {
      value: text,
      hint: 'write 0, or check the export for a broken cell',
    });
  }
  return error(
    'inexact-number',
    path,
    `${text} has more digits than a number keeps: it would be sent as ${String(value)}`,
    {
      value: text,
      hint:
        `round it to at most 15 significant digits (e.g. ${Number(value.toPrecision(15))}), or check ` +
        `the export for a broken cell`,
    },
  );
}

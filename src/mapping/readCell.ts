import { error, type Issue } from '../core/issue.js';
import { convertCell } from '../convert/cells.js';
import type { FieldKind } from '../schema/introspect.js';
import { compilePattern } from './datetimePattern.js';
import type { Converters, NumberStyle } from './mappingSpec.js';
import { formatInstant, ZoneClock } from './zoneTime.js';
import { phoneReader } from './readPhone.js';
import type { CellOutcome } from './cellOutcome.js';
import { cellMatcher } from './matchPattern.js';

export type { CellOutcome } from './cellOutcome.js';

/** Reads one cell (the raw text, maybe empty) into the field's value. */
export type CellReader = (text: string) => CellOutcome;

const ABSENT: CellOutcome = { ok: true, absent: true };
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)$/i;

const SHAPES: Record<NumberStyle, { group: string; shape: RegExp }> = {
  'decimal-comma': { group: '.', shape: /^(\d{1,3}(\.\d{3})*|\d+)(,\d+)?$|^,\d+$/ },
  'decimal-point': { group: ',', shape: /^(\d{1,3}(,\d{3})*|\d+)(\.\d+)?$|^\.\d+$/ },
};
/** A currency before or after the number: a symbol (R$, US$, €) or a three-letter code. */
const CURRENCY = /^(?:[A-Z]{0,3}\p{Sc}|[A-Z]{3}(?![a-z]))|(?:\p{Sc}|(?<![A-Za-z])[A-Z]{3})$/gu;

/** `1.234,56`, `R$ 1.234,56`, `-259,90`, `$1,234.56`: currency and spaces dropped; undefined when not a number. */
export function readNumber(text: string, style: NumberStyle): number | undefined {
  const { group, shape } = SHAPES[style];
  let body = text.replace(/[\s\u00a0]/g, '');
  const negative = body.startsWith('-') || (body.startsWith('(') && body.endsWith(')'));
  if (negative) body = body.replace(/^[-(]|\)$/g, '');
  body = body.replace(CURRENCY, '');
  if (!negative && body.startsWith('-')) return readNegative(body, style);
  if (!shape.test(body)) return undefined;
  const value = Number(body.split(group).join('').replace(',', '.'));
  return Number.isFinite(value) ? (negative ? -value : value) : undefined;
}

/** `R$ -12,50`: the sign after the currency. */
function readNegative(body: string, style: NumberStyle): number | undefined {
  const value = readNumber(body.slice(1), style);
  return value === undefined ? undefined : -value;
}

/**
 * Builds the reader of a column from its converters and the target field's kind; a string is a mistake in the
 * mapping.
 */
export function cellReader(converters: Converters, kind: FieldKind, fileZone: string): CellReader | string {
  const values = converters.values;
  const fallback = converters.default;
  let convert: (text: string) => CellOutcome;
  if (converters.split !== undefined) {
    if (kind !== 'string-array' && kind !== 'unknown' && kind !== 'json')
      return (
        `split makes a list of texts, and this field is not a list (it is ` +
        `${kind === 'integer' ? 'a number' : `a ${kind}`})`
      );
    const separator = converters.split;
    convert = (text) => ({
      ok: true,
      value: text
        .split(separator)
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    });
  } else if (converters.phone !== undefined) {
    const read = phoneReader(converters.phone, converters.country);
    if (typeof read === 'string') return read;
    convert = (text) => {
      const digits = read(text);
      return typeof digits === 'string' ? convertCell(digits, kind) : { ok: false, issue: digits };
    };
  } else if (converters.datetime !== undefined) {
    const zone = converters.zone ?? fileZone;
    const clock = new ZoneClock(zone);
    const pattern = converters.datetime;
    if (pattern === 'iso') {
      convert = (text) =>
        isoInstant(text) ?? {
          ok: false,
          issue: datetimeIssue(
            text,
            'iso',
            'an ISO 8601 instant with an offset, such as 2024-03-01T10:56:00-03:00',
          ),
        };
    } else {
      const parse = compilePattern(pattern);
      if (typeof parse === 'string') return `datetime "${pattern}": ${parse}`;
      convert = (text) => {
        const local = parse(text);
        if (!local)
          return {
            ok: false,
            issue: datetimeIssue(
              text,
              pattern,
              `a date written as ${pattern} (in ${zone}); fix the cell, or the datetime: pattern in the mapping`,
            ),
          };
        const instant = clock.toInstant(local);
        if (!instant.ok)
          return {
            ok: false,
            issue: error(
              'nonexistent-local-time',
              '',
              `${JSON.stringify(text)} never happened in ${zone}: the clocks went forward over it`,
              { value: text, hint: 'check the cell: exports sometimes shift such times by an hour' },
            ),
          };
        return { ok: true, value: formatInstant(instant.instant) };
      };
    }
  } else if (converters.number !== undefined) {
    const style = converters.number;
    convert = (text) => {
      const value = readNumber(text, style);
      return value === undefined
        ? {
            ok: false,
            issue: error('invalid-number', '', `${JSON.stringify(text)} is not a ${style} number`, {
              value: text,
              hint:
                style === 'decimal-comma'
                  ? 'write it like 1.234,56 (currency symbols are dropped)'
                  : 'write it like 1,234.56 (currency symbols are dropped)',
            }),
          }
        : { ok: true, value };
    };
  } else {
    convert = (text) => convertCell(text, kind);
  }
  const extract =
    converters.match === undefined ? undefined : cellMatcher(converters.match, converters.group);
  if (typeof extract === 'string') return extract;
  return (text) => {
    let trimmed = text.trim();
    if (trimmed === '') return fallback === undefined ? ABSENT : { ok: true, value: fallback };
    if (extract) {
      const part = extract(trimmed);
      if (typeof part !== 'string') return part;
      text = trimmed = part.trim();
      if (trimmed === '') return ABSENT;
    }
    if (values) {
      const folded = trimmed.toLowerCase();
      if (Object.hasOwn(values, folded)) return { ok: true, value: values[folded] };
    }
    return convert(text);
  };
}

function isoInstant(text: string): CellOutcome | undefined {
  const match = ISO.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, zone] = match;
  const offset = /^z$/i.test(zone!)
    ? 'Z'
    : zone!.length === 3
      ? `${zone}:00`
      : zone!.includes(':')
        ? zone!
        : `${zone!.slice(0, 3)}:${zone!.slice(3)}`;
  const instant = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${offset}`);
  return Number.isNaN(instant) ? undefined : { ok: true, value: formatInstant(instant) };
}

function datetimeIssue(text: string, pattern: string, what: string): Omit<Issue, 'path'> {
  return error(
    'invalid-datetime',
    '',
    `${JSON.stringify(text)} does not match the datetime pattern "${pattern}"`,
    { value: text, hint: `write ${what}` },
  );
}

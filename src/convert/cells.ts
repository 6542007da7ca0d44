import { error, type Issue } from '../core/issue.js';
import type { FieldKind } from '../schema/introspect.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { inexactNumber, mayBeInexact } from '../schema/exactNumber.js';

export type CellResult = { ok: true; value: unknown } | { ok: false; issue: Omit<Issue, 'path'> };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function numberHint(text: string): string {
  if (/^[+-]?\d{1,3}(\.\d{3})+,\d+$/.test(text))
    return `use a dot for decimals and no thousands separator: ${text.replace(/\./g, '').replace(',', '.')}`;
  if (/^[+-]?\d+,\d+$/.test(text)) return `use a dot for decimals: ${text.replace(',', '.')}`;
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text))
    return `remove the thousands separators: ${text.replace(/,/g, '')}`;
  const stripped = text.replace(/^[^\d+-]+/, '');
  if (stripped !== text && NUMBER.test(stripped)) return `remove the currency sign or text: ${stripped}`;
  return 'give a plain number such as 10.50';
}

/** Plain decimals (`10`, `10.50`, `-3`) without a regular expression: nearly every money cell. */
function plainDecimal(text: string): boolean {
  let dot = false;
  let digits = 0;
  for (let i = text.charCodeAt(0) === 45 ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot && digits > 0) dot = true;
    else return false;
  }
  return digits > 0 && text.charCodeAt(text.length - 1) !== 46;
}

function toNumber(text: string): CellResult {
  const trimmed = text.trim();
  if (plainDecimal(text) || NUMBER.test(trimmed)) {
    const inexact = mayBeInexact(trimmed) ? inexactNumber(trimmed) : undefined;
    return inexact ? { ok: false, issue: inexact } : { ok: true, value: Number(trimmed) };
  }
  return {
    ok: false,
    issue: error('invalid-number', '', `${JSON.stringify(text)} is not a number`, {
      value: text,
      hint: numberHint(trimmed),
    }),
  };
}

function toBoolean(text: string): CellResult {
  const folded = text.trim().toLowerCase();
  if (folded === 'true') return { ok: true, value: true };
  if (folded === 'false') return { ok: true, value: false };
  return {
    ok: false,
    issue: error('invalid-boolean', '', `${JSON.stringify(text)} is not true or false`, {
      value: text,
      hint: 'write true or false',
    }),
  };
}

function toJson(text: string, what: string, example: string): CellResult {
  try {
    const value = JSON.parse(text) as unknown;
    if (nestsDeeperThan(value, MAX_DEPTH)) {
      return {
        ok: false,
        issue: error('too-deep', '', `the JSON in this cell nests more than ${MAX_DEPTH} levels deep`, {
          hint: 'check the cell for runaway brackets',
        }),
      };
    }
    return { ok: true, value };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return {
      ok: false,
      issue: error('invalid-json', '', `the cell is not valid JSON for ${what}: ${detail}`, {
        value: text,
        hint: `write ${what} as JSON, e.g. ${example}`,
      }),
    };
  }
}

/** Converts one non-empty CSV cell to the type its field takes (docs/cli.md "Cells are converted by the schema"). */
export function convertCell(text: string, kind: FieldKind): CellResult {
  switch (kind) {
    case 'number':
    case 'integer':
      return toNumber(text);
    case 'boolean':
      return toBoolean(text);
    case 'string-array':
      return text.trimStart().startsWith('[')
        ? toJson(text, 'a list', '["a","b"]')
        : { ok: true, value: text.split('|') };
    case 'json':
      return toJson(text, 'an object', '{"channel":"app"}');
    default:
      return { ok: true, value: text };
  }
}

/** Returned by `quickCell` when the cell needs the full conversion (an error, or a JSON cell). */
export const NEEDS_FULL = Symbol('needs full conversion');

/**
 * The common cells converted without allocating a result object (a plain number, true/false,
 * an A|B list): the compiled row builder calls this first, `convertCell` only when it fails.
 */
export function quickCell(text: string, kind: FieldKind): unknown {
  switch (kind) {
    case 'number':
    case 'integer':
      return plainDecimal(text) && text.length <= 15 ? Number(text) : NEEDS_FULL;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : NEEDS_FULL;
    case 'string-array':
      return text.charCodeAt(0) === 91 || text.trimStart().startsWith('[') ? NEEDS_FULL : text.split('|');
    case 'json':
      return NEEDS_FULL;
    default:
      return text;
  }
}

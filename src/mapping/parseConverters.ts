import { isScalar, type Node } from 'yaml';
import type { Converters } from './mappingSpec.js';
import { linearPattern } from './matchPattern.js';

const PHONE_PARTS = ['country-code', 'national', 'e164'];

/** What reading converters needs of the mapping's reader (parseMapping.ts). */
export interface NodeReader {
  problem(node: Node | null | undefined, message: string, hint?: string): void;
  pairs(node: Node, allowed: readonly string[] | undefined, what: string): [string, Node | null, Node][];
  string(node: Node | null, what: string): string | undefined;
  plain(node: Node | null | undefined): unknown;
}

/** The converters of `{ column: C, ... }` and of `lookup`: their mistakes go to `read.problem`. */
export function readConverters(parts: Map<string, Node | null>, read: NodeReader): Converters {
  const converters: Converters = {};
  const datetime = parts.get('datetime');
  if (datetime !== undefined) converters.datetime = read.string(datetime, 'datetime') ?? '';
  const number = parts.get('number');
  if (number !== undefined) {
    const style = read.string(number, 'number');
    if (style === 'decimal-comma' || style === 'decimal-point') converters.number = style;
    else
      read.problem(
        number,
        `number must be decimal-comma or decimal-point${style ? `, not "${style}"` : ''}`,
        'decimal-comma reads 1.234,56; decimal-point reads 1,234.56',
      );
  }
  const values = parts.get('values');
  if (values !== undefined)
    converters.values = Object.fromEntries(
      read
        .pairs(values as Node, undefined, 'values')
        .map(([k, v]) => [k.trim().toLowerCase(), read.plain(v)]),
    );
  if (parts.has('default')) converters.default = read.plain(parts.get('default'));
  const zone = parts.get('zone');
  if (zone !== undefined) {
    const name = read.string(zone, 'zone');
    if (name !== undefined) converters.zone = name;
  }
  cellConverters(parts, converters, read);
  return converters;
}

/** `split`, `match` and `group`, `phone` and `country`. */
function cellConverters(parts: Map<string, Node | null>, converters: Converters, read: NodeReader): void {
  const split = parts.get('split');
  if (split !== undefined) {
    const separator = isScalar(split) && typeof split.value === 'string' ? split.value : '';
    if (separator === '') read.problem(split, 'split needs a separator, e.g. split: ","');
    else converters.split = separator;
  }
  const match = parts.get('match');
  if (match !== undefined) {
    const pattern = read.string(match, 'match');
    if (pattern !== undefined) {
      const why = linearPattern(pattern);
      if (typeof why !== 'string') converters.match = pattern;
      else
        read.problem(
          match,
          `match: not a pattern collect can run (${why})`,
          'write a regular expression without lookaround or backreferences (RE2 syntax) in single ' +
            "quotes, e.g. '^(?<number>\\d+)'",
        );
    }
  }
  const group = parts.get('group');
  if (group !== undefined) {
    if (match === undefined) read.problem(group, 'group goes with match: the group of the match to take');
    else if (
      isScalar(group) &&
      typeof group.value === 'number' &&
      Number.isInteger(group.value) &&
      group.value >= 0
    )
      converters.group = group.value;
    else {
      const name = read.string(group, 'group');
      if (name !== undefined) converters.group = /^\d+$/.test(name) ? Number(name) : name;
    }
  }
  const phone = parts.get('phone');
  if (phone !== undefined) {
    const part = read.string(phone, 'phone');
    if (part !== undefined && PHONE_PARTS.includes(part))
      converters.phone = part as NonNullable<Converters['phone']>;
    else
      read.problem(
        phone,
        `phone must be ${PHONE_PARTS.join(', ')}${part ? `, not "${part}"` : ''}`,
        'country-code writes 55, national 11991234567, e164 5511991234567',
      );
  }
  const country = parts.get('country');
  if (country !== undefined) {
    const code = read.string(country, 'country');
    if (phone === undefined)
      read.problem(country, 'country goes with phone: the country of numbers written without +');
    else if (code !== undefined) converters.country = code.toUpperCase();
  }
}

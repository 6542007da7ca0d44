import type * as z from 'zod';
import { isRecord } from '../schema/checks.js';
import { fieldKindAt } from '../schema/introspect.js';

function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * The inverse of `rowToRecord`: a record as dotted columns and cell texts.
 * Lists of strings join with `|` unless an element holds one; custom_data stays one JSON cell.
 */
export function flattenRecord(schema: z.core.$ZodType, record: Record<string, unknown>): [string, string][] {
  const cells: [string, string][] = [];
  const walk = (value: unknown, segments: string[]) => {
    const kind = fieldKindAt(schema, segments);
    if (kind === 'json' || (kind === 'string-array' && isStringList(value))) {
      const list = value as string[];
      const joinable =
        kind === 'string-array' &&
        list.length > 0 &&
        !list.some((item) => item.includes('|') || item === '') &&
        !list[0]!.startsWith('[');
      cells.push([segments.join('.'), joinable ? list.join('|') : JSON.stringify(value)]);
    } else if (Array.isArray(value)) {
      value.forEach((item, position) => walk(item, [...segments, String(position)]));
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value))
        if (inner !== undefined) walk(inner, [...segments, key]);
    } else {
      cells.push([segments.join('.'), cellText(value)]);
    }
  };
  walk(record, []);
  return cells;
}

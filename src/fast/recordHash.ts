import { compiledFrom } from './compiledFrom.js';
import { contentHash } from '../flow/canonical.js';
import { compileContentHash, MAX_FIELDS, type ShapeField } from './compiledHash.js';
import type { CsvColumn } from '../convert/csvColumn.js';

/** Records hashed by contentHash before a compiled hash takes over: V8 must warm the generated code up first. */
export const PLAIN_HASHES = 2000;
/**
 * Records whose fields make the shape a hash is compiled for (later ones of another shape fall back to
 * contentHash).
 */
const SAMPLED = 64;

type Hash = (value: Record<string, unknown>) => string;

/** The hash of a CSV header's rows: contentHash first, then one compiled for the header's columns. */
export function columnsHash(endpoint: string, columns: readonly CsvColumn[]): Hash {
  return compiledFrom(
    PLAIN_HASHES,
    (value) => contentHash(endpoint, value),
    () => compileContentHash(endpoint, columns),
  );
}

/** Adds the leaf paths of `value` to `fields` (by joined path), stopping at MAX_FIELDS. */
function addFields(
  value: unknown,
  segments: string[],
  indexNext: boolean[],
  fields: Map<string, ShapeField>,
): void {
  if (fields.size > MAX_FIELDS) return;
  if (typeof value !== 'object' || value === null) {
    if (segments.length > 0)
      fields.set(JSON.stringify(segments), { segments: [...segments], indexNext: [...indexNext] });
    return;
  }
  const array = Array.isArray(value);
  const entries = array ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    if (segments.length > 0) indexNext.push(array);
    segments.push(key);
    addFields(inner, segments, indexNext, fields);
    segments.pop();
    if (segments.length > 0) indexNext.pop();
  }
}

/**
 * The hash of decoded JSON records (NDJSON lines, array elements): contentHash first, then one compiled
 * for the fields of the first records, which falls back to contentHash for a record of another shape.
 */
export function learnedHash(endpoint: string): Hash {
  const fields = new Map<string, ShapeField>();
  let seen = 0;
  const plain: Hash = (value) => {
    if (seen++ < SAMPLED) addFields(value, [], [], fields);
    return contentHash(endpoint, value);
  };
  return compiledFrom(PLAIN_HASHES, plain, () => compileContentHash(endpoint, [...fields.values()]));
}

import { createHash } from 'node:crypto';

const PLAIN_KEY = /^[A-Za-z0-9_.-]*$/;

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** JSON with object keys sorted at every depth: the same record gives the same text whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      text += value[i] === undefined ? 'null' : canonicalJson(value[i]);
    }
    return `${text}]`;
  }
  const keys = Object.keys(value);
  if (!isSorted(keys)) keys.sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner === undefined) continue;
    if (!first) text += ',';
    first = false;
    // Record keys are nearly always plain names: quote them without the JSON.stringify call.
    text += PLAIN_KEY.test(key) ? `"${key}":` : `${JSON.stringify(key)}:`;
    text += canonicalJson(inner);
  }
  return `${text}}`;
}

/** The content hash of a record for one endpoint: equal records, equal hashes. */
export function contentHash(endpoint: string, value: unknown): string {
  return createHash('sha1').update(endpoint).update('\0').update(canonicalJson(value)).digest('hex');
}

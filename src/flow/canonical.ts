import { hash } from 'node:crypto';

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

/** Whether the keys of every object in a value are already in sorted order (as CSV records are built). */
export function isCanonical(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item)) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && previous > key) return false;
    previous = key;
    if (!isCanonical((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** The content hash of a record for one endpoint: equal records, equal hashes. */
export function contentHash(endpoint: string, value: unknown): string {
  // For an already sorted record the native JSON.stringify writes the same text as canonicalJson.
  const text = isCanonical(value) ? JSON.stringify(value) : canonicalJson(value);
  return hash('sha1', `${endpoint}\0${text}`);
}

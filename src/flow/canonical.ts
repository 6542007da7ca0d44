import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: the same record gives the same text whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(inner)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The content hash of a record for one endpoint: equal records, equal hashes. */
export function contentHash(endpoint: string, value: unknown): string {
  return createHash('sha1').update(endpoint).update('\0').update(canonicalJson(value)).digest('hex');
}

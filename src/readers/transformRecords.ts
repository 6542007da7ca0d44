import { error } from '../core/issue.js';
import { isRecord } from '../schema/checks.js';
import type { SourceRecord } from './sourceRecord.js';

/** `--transform MODULE.js`'s default export: a record (and where it came from) to a record, several, or null to drop it. */
export type RecordTransform = (record: Record<string, unknown>, location: { file: string; line: number | null; index: number | null }) => unknown;

/**
 * Records through a user's transform, for what a mapping cannot say. A throw or a result that is
 * not a record becomes an error of that record, never a crash; the raw row stays for --rejects.
 */
export async function* transformRecords(records: AsyncIterable<SourceRecord>, transform: RecordTransform): AsyncGenerator<SourceRecord> {
  for await (const record of records) {
    if (!isRecord(record.value)) {
      yield record;
      continue;
    }
    let result: unknown;
    try {
      result = await transform(record.value, { file: record.file, line: record.line, index: record.index });
    } catch (cause) {
      yield { ...record, issues: [...record.issues, error('transform-failed', '', `--transform threw: ${cause instanceof Error ? cause.message : String(cause)}`, { hint: 'fix the transform module for records like this one' })] };
      continue;
    }
    if (result === null || result === undefined) continue;
    const list = Array.isArray(result) ? result : [result];
    for (const value of list) {
      if (!isRecord(value)) {
        yield { ...record, issues: [...record.issues, error('transform-failed', '', '--transform returned something that is not a record', { hint: 'return an object, a list of objects, or null to drop the record' })] };
        continue;
      }
      // The transform may add fields of its own: they get the full unknown-field check.
      const { fieldsChecked: _checked, validated: _validated, orderId: _orderId, ...rest } = record;
      yield { ...rest, value };
    }
  }
}

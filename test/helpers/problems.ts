import type { Resource } from '../../src/resources/resource.js';
import { validateRecord } from '../../src/validate/validateRecord.js';

export const NOW = new Date('2025-01-01T00:00:00Z');

/** The issues of one record as `severity code @path` lines: short to assert on, clear when a test fails. */
export function problems(resource: Resource, record: unknown): string[] {
  return validateRecord(resource, record, { now: NOW }).map(
    (issue) => `${issue.severity} ${issue.code} @${issue.path}`,
  );
}

export function errorsOf(resource: Resource, record: unknown): string[] {
  return problems(resource, record).filter((line) => line.startsWith('error'));
}

/** How bad a problem is: errors make a record invalid, warnings are data-quality hints. */
export type Severity = 'error' | 'warning';

/** One problem found in one record, relative to that record. */
export interface Issue {
  severity: Severity;
  /** Stable code: a schema code (`required`, `invalid-enum`...) or a flow-rule code. */
  code: string;
  message: string;
  /** Dot path of the field (`payments.0.card.first_six_digits`); `""` for the whole record. */
  path: string;
  /** How to fix it, in one sentence. */
  hint?: string;
  /** The offending value, when there is one. */
  value?: unknown;
  /** For a field of a list element filled from another file by a mapping: that file's row. */
  child?: { file: string; line: number };
}

/** Where a record came from. */
export interface RecordLocation {
  file: string;
  /** 0-based position of the record in its file; null for a problem with the file itself. */
  index: number | null;
  /** 1-based line where the record starts; null where unknown. */
  line: number | null;
}

/** An issue with its endpoint and location, as reports show it. */
export interface LocatedIssue extends Issue, RecordLocation {
  endpoint: string;
}

export function pathToString(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join('.');
}

export function error(code: string, path: string, message: string, extra: Partial<Issue> = {}): Issue {
  return { severity: 'error', code, path, message, ...extra };
}

export function warning(code: string, path: string, message: string, extra: Partial<Issue> = {}): Issue {
  return { severity: 'warning', code, path, message, ...extra };
}

import type { CsvDialect } from '../convert/csvLine.js';

/** A mapping file as written (mapping.md), each part with the line it starts on. */

export type NumberStyle = 'decimal-comma' | 'decimal-point';

// A CSV file's dialect is convert's (it writes lines and text in it); a mapping file names one.
export type { CsvDialect };
export type { CsvEncoding } from '../convert/textEncoding.js';

export type PhonePart = 'country-code' | 'national' | 'e164';

/** How a cell is read: the converters of `{ column: C, ... }` and of `lookup`. */
export interface Converters {
  datetime?: string;
  number?: NumberStyle;
  values?: Record<string, unknown>;
  default?: unknown;
  zone?: string;
  /** The cell split on this separator: a list of trimmed, non-empty strings. */
  split?: string;
  /** A regular expression; `group` names the group taken (default: group 1, else the whole match). */
  match?: string;
  group?: string | number;
  /** The cell read as a phone number: which part is written, and the country of numbers without one. */
  phone?: PhonePart;
  country?: string;
}

export type FieldSource =
  | ({ kind: 'column'; column: string } & Converters)
  | { kind: 'value'; value: unknown }
  | { kind: 'template'; template: string }
  | { kind: 'sum'; list: string; field: string; times?: string }
  | ({ kind: 'lookup'; from: string; key: KeyPair; column: string; csv?: CsvDialect } & Converters);

/** A key column in the row's file (`parent`) and in the other file (`child`). */
export interface KeyPair {
  parent: string;
  child: string;
}

export interface FieldSpec {
  /** Target field path, relative to the record (or to the list element). */
  target: string;
  source: FieldSource;
  line: number;
}

export interface Condition {
  column: string;
  present?: boolean;
  in?: string[];
  notIn?: string[];
  line: number;
}

/** Fields of one record or list element, with its own filter and lists. */
export interface RowSpec {
  fields: FieldSpec[];
  lists: ListSpec[];
  when: Condition[];
  zone?: string;
  csv?: CsvDialect;
}

export interface ListSpec extends RowSpec {
  /** The target field the list fills (`payments`). */
  name: string;
  /** A file name, a glob (the rows of every matching file), or `self` (the file of the row it joins). */
  from: string;
  key: KeyPair;
  line: number;
}

export interface EntrySpec extends RowSpec {
  /** Undefined in the flat form: the command's endpoint. */
  endpoint?: string;
  /** A file name or glob; undefined: every file the command reads. */
  from?: string;
  line: number;
  /** The flat form: columns named after a field of the endpoint pass as they are. */
  passKnownColumns?: true;
}

export interface MappingSpec {
  zone: string;
  csv?: CsvDialect;
  entries: EntrySpec[];
}

/** A mistake in the mapping file, at its line. */
export interface MappingProblem {
  line: number;
  message: string;
  hint?: string;
}

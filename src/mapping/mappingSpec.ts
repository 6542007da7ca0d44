/** A mapping file as written (mapping.md), each part with the line it starts on. */

export type NumberStyle = 'decimal-comma' | 'decimal-point';

/** How a cell is read: the converters of `{ column: C, ... }` and of `lookup`. */
export interface Converters {
  datetime?: string;
  number?: NumberStyle;
  values?: Record<string, unknown>;
  default?: unknown;
  zone?: string;
}

export type FieldSource =
  | ({ kind: 'column'; column: string } & Converters)
  | { kind: 'value'; value: unknown }
  | { kind: 'template'; template: string }
  | { kind: 'sum'; list: string; field: string }
  | ({ kind: 'lookup'; from: string; key: KeyPair; column: string } & Converters);

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
}

export interface ListSpec extends RowSpec {
  /** The target field the list fills (`payments`). */
  name: string;
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
  entries: EntrySpec[];
}

/** A mistake in the mapping file, at its line. */
export interface MappingProblem {
  line: number;
  message: string;
  hint?: string;
}

import type { FormatReader } from './formatReader.js';
import type { InputFormat } from './formatName.js';

/** One input format: how a file is known to be of it, how it is read, how its rejects are written. */
export interface InputFormatEntry {
  /** The file-name extensions that say the format (lower case, before any `.gz`). */
  extensions: readonly string[];
  /** The format rejected records are written back in: the input's own, or CSV rows for a binary one. */
  rejects: 'json' | 'ndjson' | 'csv';
  /** Whether `collect decisions` reads it (rows of order_id and decision). */
  decisions: boolean;
  /** Its reader (the inline reader, how it is cut into pieces for the workers): loaded when a file of it is read. */
  load(): Promise<FormatReader>;
}

/**
 * The input formats, the one place a format is declared: the commands' `--input-format` choices,
 * the backfill folder's file names, `inputSpec`, the readers, the rejects writers and the decisions
 * reader all derive from it. A new format is an entry here and its reader.
 */
export const inputFormats = {
  json: {
    extensions: ['json'],
    rejects: 'json',
    decisions: false,
    load: async () => (await import('./jsonFormat.js')).jsonFormat,
  },
  ndjson: {
    extensions: ['ndjson', 'jsonl'],
    rejects: 'ndjson',
    decisions: true,
    load: async () => (await import('./ndjsonFormat.js')).ndjsonFormat,
  },
  csv: {
    extensions: ['csv'],
    rejects: 'csv',
    decisions: true,
    load: async () => (await import('./csvFormat.js')).csvFormat,
  },
  parquet: {
    extensions: ['parquet'],
    rejects: 'csv',
    decisions: false,
    load: async () => (await import('./parquetFormat.js')).parquetFormat,
  },
} as const satisfies Record<InputFormat, InputFormatEntry>;

/** Every format's name, in the table's order. */
export const inputFormatNames = Object.keys(inputFormats) as InputFormat[];

/** The formats `collect decisions` reads. */
export const decisionFormats = inputFormatNames.filter((name) => inputFormats[name].decisions);

/** The entry of a format. */
export const formatEntry = (format: InputFormat): InputFormatEntry => inputFormats[format];

/** The format an extension says (lower case, without its dot), if any. */
export function formatOfExtension(extension: string): InputFormat | undefined {
  return inputFormatNames.find((name) =>
    (inputFormats[name].extensions as readonly string[]).includes(extension),
  );
}

/** Every extension, for a file-name pattern (`csv|json|...`). */
export const extensionPattern = inputFormatNames.flatMap((name) => inputFormats[name].extensions).join('|');

/** The extensions as a user reads them: `.json, .ndjson, .jsonl or .csv`. */
export function extensionList(): string {
  const all = inputFormatNames.flatMap((name) => inputFormats[name].extensions).map((ext) => `.${ext}`);
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
}

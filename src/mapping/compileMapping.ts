import type * as z from 'zod';
import { closest } from '../core/suggest.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import type { EndpointName } from '../resources/resource.js';
import { compileRow, headerScope, type CompiledRow, type IndexNeed, type RowContext } from './compileRow.js';
import type { EntrySpec, FieldSpec, MappingProblem, MappingSpec } from './mappingSpec.js';
import { resolveTarget } from './targetField.js';
import { isKnownZone } from './zoneTime.js';

/** One entry of a mapping bound to one file's header: what turns its rows into records of an endpoint. */
export interface CompiledEntry {
  endpoint: EndpointName;
  /** The file, as named inside the inputs' folder. */
  file: string;
  row: CompiledRow;
  /** Columns of the file that the entry reads. */
  columnsRead: ReadonlySet<string>;
}

export interface CompileContext {
  /** The files the mapping applies to, named inside one folder. */
  files: readonly string[];
  /** The header of a file of that folder (an input, a list's or a lookup's); undefined when it does not exist. */
  header(file: string): readonly string[] | undefined;
  schemas: Readonly<Record<EndpointName, z.core.$ZodType>>;
  /** An endpoint command's: the flat form's endpoint, and the only entries applied. */
  endpoint?: EndpointName;
  /** Every file must be read by an entry (an endpoint command's files); a backfill takes what the entries name. */
  everyFileMapped: boolean;
}

export interface CompiledMapping {
  entries: CompiledEntry[];
  indexes: IndexNeed[];
  problems: MappingProblem[];
  /** Per file: the header columns no entry reads (the ignored-columns note). */
  ignored: Map<string, string[]>;
}

/** `*` and `?` globs over a file name. */
export function globMatches(glob: string, name: string): boolean {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/**
 * Checks a parsed mapping against the service's schemas and the files' headers, and binds each
 * entry to the files it reads: every mistake is a problem at its line, found before any record is read.
 */
export function compileMapping(spec: MappingSpec, context: CompileContext): CompiledMapping {
  const problems: MappingProblem[] = [];
  const indexes: IndexNeed[] = [];
  const entries: CompiledEntry[] = [];
  const endpoints = Object.keys(context.schemas) as EndpointName[];
  if (!isKnownZone(spec.zone)) problems.push({ line: 1, message: `zone: "${spec.zone}" is not a time zone`, hint: 'use an IANA name such as America/Sao_Paulo or UTC' });
  const mapped = new Set<string>();
  for (const entry of spec.entries) {
    const endpoint = (entry.endpoint ?? context.endpoint) as EndpointName | undefined;
    const schema = endpoint === undefined ? undefined : context.schemas[endpoint];
    if (!endpoint || !schema || !endpoints.includes(endpoint)) {
      const guess = entry.endpoint ? closest(entry.endpoint, endpoints) : undefined;
      problems.push({ line: entry.line, message: `endpoint "${entry.endpoint ?? ''}" is not one of ${endpoints.join(', ')}`, ...(guess ? { hint: `did you mean ${guess}?` } : {}) });
      continue;
    }
    if (context.endpoint && endpoint !== context.endpoint) continue;
    if (entry.zone !== undefined && !isKnownZone(entry.zone)) problems.push({ line: entry.line, message: `zone: "${entry.zone}" is not a time zone`, hint: 'use an IANA name such as America/Sao_Paulo or UTC' });
    const files = context.files.filter((file) => entry.from === undefined || globMatches(entry.from, file));
    if (files.length === 0 && !context.everyFileMapped) {
      problems.push({ line: entry.line, message: `from: "${entry.from ?? ''}" matches no file here (${context.files.slice(0, 6).join(', ') || 'none'})`, hint: 'from: is a file name or glob inside the folder given to backfill' });
    }
    for (const file of files) {
      mapped.add(file);
      const header = context.header(file) ?? [];
      const scope = headerScope(file, header, problems);
      const rowContext: RowContext = { header: context.header, problems, indexes };
      const withPassed = entry.passKnownColumns ? { ...entry, fields: [...entry.fields, ...knownColumns(entry, header, schema)] } : entry;
      const row = compileRow(withPassed, schema, scope, entry.zone ?? spec.zone, rowContext);
      entries.push({ endpoint, file, row, columnsRead: scope.read });
    }
  }
  if (context.everyFileMapped) {
    for (const file of context.files.filter((f) => !mapped.has(f))) {
      problems.push({ line: 1, message: `no entry of the mapping reads ${file}${context.endpoint ? ` as ${context.endpoint} records` : ''}`, hint: 'add an entry whose from: matches the file (or leave from: out to read every file)' });
    }
  }
  const ignored = new Map<string, string[]>();
  for (const file of new Set(entries.map((entry) => entry.file))) {
    const read = new Set(entries.filter((entry) => entry.file === file).flatMap((entry) => [...entry.columnsRead]));
    const rest = (context.header(file) ?? []).filter((column) => !read.has(column) && column !== REASON_FIELD && column.trim() !== '');
    if (rest.length > 0) ignored.set(file, rest);
  }
  return { entries, indexes: dedupe(indexes), problems: problems.sort((a, b) => a.line - b.line), ignored };
}

/** The flat form's other columns: those named after a field of the endpoint pass as they are (the old `--map`'s renames). */
function knownColumns(entry: EntrySpec, header: readonly string[], schema: z.core.$ZodType): FieldSpec[] {
  const targets = new Set(entry.fields.map((field) => field.target));
  return header
    .filter((column) => column !== REASON_FIELD && column.trim() !== '' && !targets.has(column.trim()))
    .filter((column) => resolveTarget(schema, column.trim().split('.')).problem === undefined)
    .map((column) => ({ target: column.trim(), source: { kind: 'column', column }, line: 1 }));
}

function dedupe(indexes: IndexNeed[]): IndexNeed[] {
  const seen = new Map(indexes.map((need) => [`${need.file}\u0000${need.keyColumn}`, need]));
  return [...seen.values()];
}

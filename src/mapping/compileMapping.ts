import type * as z from 'zod';
import { closest } from '../core/suggest.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import type { EndpointName } from '../resources/resource.js';
import {
  compileRow,
  headerScope,
  OUTSIDE_HINT,
  type CompiledRow,
  type IndexNeed,
  type RowContext,
} from './compileRow.js';
import { filesJoined, globPattern, SELF } from './fromFiles.js';
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
  /**
   * Columns the entry reads anywhere, by file: its row's, its lists' and its lookups' (its own file's under
   * `file`).
   */
  reads: ReadonlyMap<string, ReadonlySet<string>>;
  /** The position of the mapping's entry it was compiled from (`compileEntry` compiles it again). */
  source: number;
}

export interface CompileContext {
  /** The files the mapping applies to, named inside one folder. */
  files: readonly string[];
  /** The header of a file of that folder (an input, a list's or a lookup's); undefined when it does not exist. */
  header(file: string): readonly string[] | undefined;
  /** The folder's files, which a list's or a lookup's glob matches (default: `files`). */
  listing?: readonly string[];
  /** Why a file of that folder may not be read (a link out of it, a name outside it); undefined: it may. */
  refused?(file: string): string | undefined;
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
  /**
   * Per file read (an entry's, a list's or a lookup's): the header columns nothing reads (the ignored-columns
   * note).
   */
  ignored: Map<string, string[]>;
}

export { filesJoined, globMatches } from './fromFiles.js';

/** The endpoint an entry makes records of (its own, or the command's in the flat form); a wrong one is a problem. */
function entryEndpoint(
  entry: EntrySpec,
  context: Pick<CompileContext, 'schemas' | 'endpoint'>,
  problems: MappingProblem[],
): EndpointName | undefined {
  const endpoints = Object.keys(context.schemas) as EndpointName[];
  const endpoint = (entry.endpoint ?? context.endpoint) as EndpointName | undefined;
  if (endpoint !== undefined && endpoints.includes(endpoint)) return endpoint;
  const guess = entry.endpoint ? closest(entry.endpoint, endpoints) : undefined;
  problems.push({
    line: entry.line,
    message: `endpoint "${entry.endpoint ?? ''}" is not one of ${endpoints.join(', ')}`,
    ...(guess ? { hint: `did you mean ${guess}?` } : {}),
  });
  return undefined;
}

/** The mapping's entry at `at` bound to one file its `from:` matched. */
function bindEntry(
  spec: MappingSpec,
  at: number,
  endpoint: EndpointName,
  file: string,
  context: Pick<CompileContext, 'header' | 'schemas' | 'refused' | 'listing'>,
  problems: MappingProblem[],
  indexes: IndexNeed[],
): CompiledEntry {
  const entry = spec.entries[at]!;
  const schema = context.schemas[endpoint]!;
  const header = context.header(file) ?? [];
  const scope = headerScope(file, header, problems);
  const scopes = [scope];
  const rowContext: RowContext = {
    header: context.header,
    listing: context.listing ?? [],
    problems,
    indexes,
    scopes,
    ...(context.refused ? { refused: context.refused } : {}),
  };
  const withPassed = entry.passKnownColumns
    ? { ...entry, fields: [...entry.fields, ...knownColumns(entry, header, schema)] }
    : entry;
  const row = compileRow(withPassed, schema, scope, entry.zone ?? spec.zone, rowContext);
  const reads = new Map<string, Set<string>>();
  for (const { file: name, read } of scopes) {
    const columns = reads.get(name) ?? new Set<string>();
    for (const column of read) columns.add(column);
    reads.set(name, columns);
  }
  return { endpoint, file, row, columnsRead: scope.read, reads, source: at };
}

/** A compiled entry bound to another file of the same header: what it read of its own file, it reads of that one. */
function rebound(entry: CompiledEntry, file: string): CompiledEntry {
  const reads = new Map(entry.reads);
  reads.delete(entry.file);
  reads.set(file, new Set([...(entry.reads.get(entry.file) ?? []), ...(reads.get(file) ?? [])]));
  return { ...entry, file, reads };
}

/**
 * One entry for one file again, on another thread: the reading thread compiled the whole mapping
 * and found no problem, so this needs only that file's header and those of the files the entry joins.
 */
export function compileEntry(
  spec: MappingSpec,
  at: number,
  file: string,
  context: Pick<CompileContext, 'header' | 'schemas' | 'endpoint' | 'listing'>,
): CompiledEntry {
  const problems: MappingProblem[] = [];
  const entry = spec.entries[at];
  const endpoint = entry ? entryEndpoint(entry, context, problems) : undefined;
  if (!endpoint) throw new Error(`the mapping has no entry ${at} here`);
  return bindEntry(spec, at, endpoint, file, context, problems, []);
}

/**
 * Checks a parsed mapping against the service's schemas and the files' headers, and binds each
 * entry to the files it reads: every mistake is a problem at its line, found before any record is read.
 */
export function compileMapping(spec: MappingSpec, context: CompileContext): CompiledMapping {
  const problems: MappingProblem[] = [];
  const indexes: IndexNeed[] = [];
  const entries: CompiledEntry[] = [];
  if (!isKnownZone(spec.zone))
    problems.push({
      line: 1,
      message: `zone: "${spec.zone}" is not a time zone`,
      hint: 'use an IANA name such as America/Sao_Paulo or UTC',
    });
  const mapped = new Set<string>();
  const listing = context.listing ?? context.files;
  for (const [at, entry] of spec.entries.entries()) {
    const endpoint = entryEndpoint(entry, context, problems);
    if (!endpoint || (context.endpoint && endpoint !== context.endpoint)) continue;
    if (entry.zone !== undefined && !isKnownZone(entry.zone))
      problems.push({
        line: entry.line,
        message: `zone: "${entry.zone}" is not a time zone`,
        hint: 'use an IANA name such as America/Sao_Paulo or UTC',
      });
    const glob = entry.from === undefined ? undefined : globPattern(entry.from);
    const files = context.files.filter((file) => glob === undefined || glob.test(file));
    if (files.length === 0 && !context.everyFileMapped) {
      problems.push({
        line: entry.line,
        message: `from: "${entry.from ?? ''}" matches no file here (${context.files.slice(0, 6).join(', ') || 'none'})`,
        hint: 'from: is a file name or glob inside the folder given to backfill',
      });
    }
    // Files with the same header (an export split by month or by order) share one compiled row,
    // unless it joins its own file (from: self), which differs per file.
    const byHeader = new Map<string, CompiledEntry>();
    const perFile = filesJoined(entry).has(SELF);
    for (const file of files) {
      mapped.add(file);
      const refusal = context.refused?.(file);
      if (refusal !== undefined) {
        problems.push({
          line: entry.line,
          message: `from: "${entry.from ?? ''}" matches ${file}: ${refusal}`,
          hint: OUTSIDE_HINT,
        });
        continue;
      }
      const header = JSON.stringify(context.header(file) ?? []);
      const same = perFile ? undefined : byHeader.get(header);
      if (same) entries.push(rebound(same, file));
      else {
        const entry = bindEntry(spec, at, endpoint, file, { ...context, listing }, problems, indexes);
        byHeader.set(header, entry);
        entries.push(entry);
      }
    }
  }
  if (context.everyFileMapped) {
    for (const file of context.files.filter((f) => !mapped.has(f))) {
      problems.push({
        line: 1,
        message: `no entry of the mapping reads ${file}${context.endpoint ? ` as ${context.endpoint} records` : ''}`,
        hint: 'add an entry whose from: matches the file (or leave from: out to read every file)',
      });
    }
  }
  // Grouped by file in one pass: a folder of thousands of files must not cost files × entries.
  const readIn = new Map<string, Set<string>>();
  for (const entry of entries) {
    for (const [file, columns] of entry.reads) {
      const read = readIn.get(file) ?? new Set<string>();
      for (const column of columns) read.add(column);
      readIn.set(file, read);
    }
  }
  const ignored = new Map<string, string[]>();
  for (const [file, read] of readIn) {
    const rest = (context.header(file) ?? []).filter(
      (column) => !read.has(column) && column !== REASON_FIELD && column.trim() !== '',
    );
    if (rest.length > 0) ignored.set(file, rest);
  }
  // An entry compiled for each of its files (from: self) finds a mistake once per file: said once.
  const unique = [...new Map(problems.map((p) => [`${p.line}\u0000${p.message}`, p])).values()];
  return { entries, indexes: dedupe(indexes), problems: unique.sort((a, b) => a.line - b.line), ignored };
}

/**
 * The flat form's other columns: those named after a field of the endpoint pass as they are (the old
 * `--map`'s renames).
 */
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

import { REASON_FIELD } from '../core/rejectsField.js';
import { restoreFormula } from '../convert/formulaCells.js';
import type { CompiledEntry } from '../mapping/compileMapping.js';
import { applyRow, type BuiltFrom } from '../mapping/applyRow.js';
import { prefetchBatch, type RelatedRows } from '../mapping/compileRow.js';
import { columnCountIssue } from '../convert/rowIssues.js';
import { parseCsvRows, type RowSource, type Staging } from './csvRows.js';
import { stopAtCsvError } from './csvStopped.js';
import type { MappedRecipe } from './mappedStage.js';
import type { CsvDialect } from '../mapping/mappingSpec.js';
import type { RawCsvRow, ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';
import type { TransformHook } from './transformRecords.js';

/** An input read through a mapping entry: the entry, and the rows of other files its lists and lookups join. */
export interface MappedSource {
  entry: CompiledEntry;
  related: RelatedRows;
  /** Said once per run (ignored columns). */
  notes: { code: string; message: string }[];
  /**
   * How a piece worker compiles the same entry and reads the same related rows (absent: the rows are mapped
   * on this thread).
   */
  recipe?: MappedRecipe;
  /**
   * The dialect of each file its lists and lookups read, when the mapping gives one (their rejects are
   * written in it).
   */
  dialects?: ReadonlyMap<string, CsvDialect>;
}

/** How an input's records are read: through a mapping entry, then a transform; either may be absent. */
export interface ReadHooks {
  mapping?: MappedSource;
  transform?: TransformHook;
  notes?: { code: string; message: string }[];
}

/**
 * Records of a CSV export through its mapping entry: each row kept by `when:` becomes one record
 * of the mapped fields only; the row stays as written (raw) so a rejects file reads back the same way.
 */
export function readMappedCsvRecords(
  bytes: AsyncIterable<Buffer>,
  file: string,
  source: MappedSource,
  limits: ReadLimits,
  check?: ReadCheck,
): AsyncGenerator<SourceRecord> {
  const rows: RowSource = (staging) => parseCsvRows(bytes, limits.maxRecordBytes, staging);
  return readMappedRows(rows, file, source, check);
}

/** Records of an input of rows of cells (CSV, Parquet) through its mapping entry, from its `rows`. */
export async function* readMappedRows(
  rows: RowSource,
  file: string,
  source: MappedSource,
  check?: ReadCheck,
): AsyncGenerator<SourceRecord> {
  // Records the run needs whole (to send or write out) are mapped here; the others where their pieces are parsed.
  if (check && check.needs !== 'values' && source.recipe) {
    yield* readStagedRecords(rows, file, source.recipe, check);
    return;
  }
  const { row } = source.entry;
  const headers = new Map(source.recipe?.headers ?? []);
  let header: readonly string[] | undefined;
  /** A rejects file collect wrote (it has the reasons column): its cells carry the formula guard to remove. */
  let restore = false;
  let index = 0;
  for await (const batch of rows()) {
    if (!header) restore = batch.rows[0]?.includes(REASON_FIELD) ?? false;
    if (restore)
      for (let n = header ? 0 : 1; n < batch.rows.length; n++)
        batch.rows[n] = batch.rows[n]!.map(restoreFormula);
    prefetchBatch(row, header ? batch.rows : batch.rows.slice(1), source.related);
    for (let n = 0; n < batch.rows.length; n++) {
      const cells = batch.rows[n]!;
      if (!header) {
        header = cells;
        continue;
      }
      const position = index++;
      if (!row.keep(cells)) continue;
      // The rows it was built from only for a rejects file: they are what --rejects writes back.
      const mapped = applyRow(row, cells, source.related, check?.needs === 'values' || check === undefined);
      if (cells.length !== header.length) mapped.issues.push(columnCountIssue(cells.length, header.length));
      yield {
        file,
        index: position,
        line: batch.lines[n]!,
        value: mapped.value,
        issues: mapped.issues,
        fieldsChecked: true,
        raw: rawRows(header, cells, batch.lines[n]!, mapped.rows, (name) =>
          name === source.entry.file ? header : headers.get(name),
        ),
        ...(mapped.children ? { children: mapped.children } : {}),
      };
    }
    if (batch.error) stopAtCsvError(file, batch.error);
  }
}

/**
 * The row as written, with every row of its lists and lookups, so a rejects file holds all the record was
 * built from.
 */
function rawRows(
  header: readonly string[],
  cells: readonly string[],
  line: number,
  rows: readonly BuiltFrom[] | undefined,
  headerOf: (file: string) => readonly string[] | undefined,
): RawCsvRow {
  const related = (rows ?? []).map((built) => ({ ...built, header: headerOf(built.file) ?? [] }));
  return { kind: 'csv', header, cells, line, ...(related.length > 0 ? { related } : {}) };
}

/**
 * Records of a mapped CSV export, mapped and checked on the piece workers (mappedStage.ts): only
 * their locations, issues, order ids and (for `digests`) flow facts and hashes come back.
 */
async function* readStagedRecords(
  rows: RowSource,
  file: string,
  recipe: MappedRecipe,
  check: ReadCheck,
): AsyncGenerator<SourceRecord> {
  const staging: Staging = {
    plan: (cells) => {
      return {
        mapped: recipe,
        endpoint: check.endpoint,
        now: check.now.getTime(),
        digest: check.needs === 'digests',
        width: cells.length,
      };
    },
  };
  let index = 0;
  for await (const batch of rows(staging)) {
    const staged = batch.staged;
    if (staged) {
      for (let n = 0; n < staged.lines.length; n++) {
        const checked = staged.checked![n]!;
        yield {
          file,
          index: index + staged.positions![n]!,
          line: staged.lines[n]!,
          issues: checked.issues,
          fieldsChecked: true,
          checked,
        };
      }
      index += staged.rowCount!;
    }
    if (batch.error) stopAtCsvError(file, batch.error);
  }
}

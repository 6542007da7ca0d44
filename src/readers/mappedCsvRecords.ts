import { error } from '../core/issue.js';
import type { CompiledEntry } from '../mapping/compileMapping.js';
import { applyRow } from '../mapping/applyRow.js';
import { prefetchBatch, type RelatedRows } from '../mapping/compileRow.js';
import { columnCountIssue } from '../convert/rowIssues.js';
import { parseCsvRows } from './csvRows.js';
import type { ReadLimits, SourceRecord } from './sourceRecord.js';
import type { RecordTransform } from './transformRecords.js';

/** An input read through a mapping entry: the entry, and the rows of other files its lists and lookups join. */
export interface MappedSource {
  entry: CompiledEntry;
  related: RelatedRows;
  /** Said once per run (ignored columns). */
  notes: { code: string; message: string }[];
}

/** How an input's records are read: through a mapping entry, then a transform; either may be absent. */
export interface ReadHooks {
  mapping?: MappedSource;
  transform?: RecordTransform;
  notes?: { code: string; message: string }[];
}

/**
 * Records of a CSV export through its mapping entry: each row kept by `when:` becomes one record
 * of the mapped fields only; the row stays as written (raw) so a rejects file reads back the same way.
 */
export async function* readMappedCsvRecords(bytes: AsyncIterable<Buffer>, file: string, source: MappedSource, limits: ReadLimits): AsyncGenerator<SourceRecord> {
  const { row } = source.entry;
  let header: readonly string[] | undefined;
  let index = 0;
  for await (const batch of parseCsvRows(bytes, limits.maxRecordBytes)) {
    prefetchBatch(row, header ? batch.rows : batch.rows.slice(1), source.related);
    for (let n = 0; n < batch.rows.length; n++) {
      const cells = batch.rows[n]!;
      if (!header) {
        header = cells;
        continue;
      }
      const position = index++;
      if (!row.keep(cells)) continue;
      const mapped = applyRow(row, cells, source.related);
      if (cells.length !== header.length) mapped.issues.push(columnCountIssue(cells.length, header.length));
      yield {
        file, index: position, line: batch.lines[n]!, value: mapped.value, issues: mapped.issues, fieldsChecked: true,
        raw: { kind: 'csv', header, cells }, ...(mapped.children ? { children: mapped.children } : {}),
      };
    }
    if (batch.error) {
      yield { file, index: header ? index : null, line: batch.error.line, issues: [error('invalid-csv', '', `the CSV cannot be read here: ${batch.error.message}`, { hint: 'check the quoting of this row: a quote inside a cell must be doubled ("")' })] };
    }
  }
}

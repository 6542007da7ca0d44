import type * as z from 'zod';
import { error, type Issue } from '../core/issue.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import { restoreFormula } from '../convert/formulaCells.js';
import { planCsvColumns, rowToRecord, type CsvPlan } from '../convert/csvColumns.js';
import { parseCsvRows, type RowBatch } from './csvRows.js';
import { parseCsvRowsInline } from './csvRowsInline.js';
import { defaultLimits, type ReadLimits, type SourceRecord } from './sourceRecord.js';

export interface CsvOptions {
  schema: z.core.$ZodType;
  limits?: ReadLimits;
}

function csvProblem(failure: NonNullable<RowBatch['error']>, limits: ReadLimits): Issue {
  if (failure.code === 'CSV_MAX_RECORD_SIZE') {
    return error('record-too-large', '', `a row here is longer than the limit of ${limits.maxRecordBytes.toLocaleString('en-US')} characters; reading stopped`, {
      hint: 'check the file for an unclosed quote, or raise --max-record-bytes',
    });
  }
  const unclosed = failure.code === 'CSV_QUOTE_NOT_CLOSED';
  return error('invalid-csv', '', unclosed ? 'a quoted cell that starts here is never closed' : `the CSV cannot be read here: ${failure.message}`, {
    hint: unclosed ? 'close the quote, or double a quote inside a quoted cell ("")' : 'check the quoting of this row: a quote inside a cell must be doubled ("")',
  });
}

/** Inputs up to this many bytes are parsed on this thread: a worker costs more to start than they take to parse. */
export const INLINE_PARSE_BYTES = 128 * 1024;

/** The input's rows: parsed here when it is small, on the parse worker (the second core) otherwise. */
async function* csvRows(bytes: AsyncIterable<Buffer>, maxRecordSize: number): AsyncGenerator<RowBatch> {
  const input = bytes[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  while (size <= INLINE_PARSE_BYTES) {
    const step = await input.next();
    if (step.done) {
      yield await parseCsvRowsInline(Buffer.concat(head), maxRecordSize);
      return;
    }
    head.push(step.value);
    size += step.value.length;
  }
  const rest = async function* () {
    try {
      yield* head;
      for (let step = await input.next(); !step.done; step = await input.next()) yield step.value;
    } finally {
      await input.return?.();
    }
  };
  yield* parseCsvRows(rest(), maxRecordSize);
}

/** Far past any export of the service's records (a few hundred columns, a few thousand with many numbered items). */
export const MAX_CSV_COLUMNS = 10_000;

function tooManyColumns(header: readonly string[]): Issue {
  const first = header.slice(0, 5).map((name) => JSON.stringify(name)).join(', ');
  return error('too-many-columns', '', `the header has ${header.length.toLocaleString('en-US')} columns (${first}, …), more than the ${MAX_CSV_COLUMNS.toLocaleString('en-US')} any export of the service's records fills; the file was not read`, {
    hint: 'check that this is the right file and that its separator is a comma; keep only the columns of `collect template`',
  });
}

/**
 * Records of a CSV input: the header names fields, each row becomes a nested record
 * starting on its own line (blank lines and multi-line cells counted).
 */
export async function* readCsvRecords(bytes: AsyncIterable<Buffer>, file: string, options: CsvOptions): AsyncGenerator<SourceRecord> {
  let plan: CsvPlan | undefined;
  let header: readonly string[] = [];
  let index = 0;
  // A rejects file collect wrote (it has the reasons column): its cells carry the formula guard to remove.
  let restore = false;
  const limits = options.limits ?? defaultLimits;
  for await (const batch of csvRows(bytes, limits.maxRecordBytes)) {
    for (let n = 0; n < batch.rows.length; n++) {
      let cells = batch.rows[n]!;
      const start = batch.lines[n]!;
      if (!plan) restore = cells.includes(REASON_FIELD);
      if (restore) cells = cells.map(restoreFormula);
      if (!plan && cells.length > MAX_CSV_COLUMNS) {
        // A header this wide is not an export of the service's records: one verdict for the file, not one per column.
        yield { file, index: null, line: start, issues: [tooManyColumns(cells)] };
        return;
      }
      if (!plan) {
        header = cells;
        const planned = planCsvColumns(cells, options.schema);
        plan = planned.plan;
        if (planned.issues.length > 0) yield { file, index: null, line: start, issues: planned.issues };
        continue;
      }
      const { value, issues } = rowToRecord(plan, cells);
      yield { file, index: index++, line: start, value, issues, fieldsChecked: true, raw: { kind: 'csv', header, cells } };
    }
    if (batch.error) yield { file, index: plan ? index : null, line: batch.error.line, issues: [csvProblem(batch.error, limits)] };
  }
}

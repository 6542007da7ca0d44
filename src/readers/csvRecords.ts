import { parse, type CsvError } from 'csv-parse';
import type * as z from 'zod';
import { error } from '../core/issue.js';
import { planCsvColumns, rowToRecord, type ColumnMap, type CsvPlan } from '../convert/csvColumns.js';
import type { SourceRecord } from './sourceRecord.js';

export interface CsvOptions {
  schema: z.core.$ZodType;
  map?: ColumnMap;
}

interface Row {
  cells: string[];
  emptyLines: number;
}

/** Line breaks inside quoted cells; csv-parse's own line count doubles a CRLF inside quotes. */
function breaksInside(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
    breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/**
 * Records of a CSV input: the header names fields, each row becomes a nested record.
 * Rows are taken from csv-parse's `on_record`, so rows parsed before a syntax error are not lost.
 */
export async function* readCsvRecords(text: AsyncIterable<string | Buffer>, file: string, options: CsvOptions): AsyncGenerator<SourceRecord> {
  const rows: Row[] = [];
  let failure: CsvError | undefined;
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    on_record: (cells: string[], context) => {
      rows.push({ cells, emptyLines: context.empty_lines });
      return undefined;
    },
  });
  parser.on('error', (cause: CsvError) => (failure ??= cause));
  parser.resume();
  const write = (chunk: string | Buffer) => new Promise<void>((resolve) => parser.write(chunk, () => resolve()));
  const finish = () => new Promise<void>((resolve) => {
    if (failure) return resolve();
    parser.once('error', () => resolve());
    parser.once('finish', () => resolve());
    parser.end();
  });

  let plan: CsvPlan | undefined;
  let index = 0;
  let lastLine = 0;
  let lastEmpty = 0;
  function* drain(): Generator<SourceRecord> {
    for (const row of rows.splice(0)) {
      const line = lastLine + 1 + (row.emptyLines - lastEmpty);
      lastLine = line + breaksInside(row.cells);
      lastEmpty = row.emptyLines;
      if (!plan) {
        const planned = planCsvColumns(row.cells, options.schema, options.map);
        plan = planned.plan;
        if (planned.issues.length > 0) yield { file, index: null, line, issues: planned.issues };
        continue;
      }
      const { value, issues } = rowToRecord(plan, row.cells);
      yield { file, index: index++, line, value, issues };
    }
  }

  for await (const chunk of text) {
    await write(chunk);
    yield* drain();
    if (failure) break;
  }
  await finish();
  yield* drain();
  if (failure) {
    const emptyLines = (failure as unknown as { empty_lines?: number }).empty_lines ?? lastEmpty;
    const line = lastLine + 1 + (emptyLines - lastEmpty);
    yield { file, index: plan ? index : null, line, issues: [csvProblem(failure)] };
  }
}

function csvProblem(failure: CsvError) {
  const unclosed = failure.code === 'CSV_QUOTE_NOT_CLOSED';
  return error('invalid-csv', '', unclosed ? 'a quoted cell that starts here is never closed' : `the CSV cannot be read here: ${failure.message}`, {
    hint: unclosed ? 'close the quote, or double a quote inside a quoted cell ("")' : 'check the quoting of this row: a quote inside a cell must be doubled ("")',
  });
}

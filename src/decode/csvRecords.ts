import type * as z from 'zod';
import { error, type Issue } from '../core/issue.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import { restoreFormula } from '../convert/formulaCells.js';
import { planCsvColumns, rowToRecord, type CsvPlan } from '../convert/csvColumns.js';
import { compileRowBuilder } from '../fast/compiledRowBuilder.js';
import { parseCsvRows, type RowSource, type Staging } from './csvRows.js';
import { stopAtCsvError } from './csvStopped.js';
import { defaultLimits, type ReadCheck, type ReadLimits, type SourceRecord } from './sourceRecord.js';

export interface CsvOptions {
  schema: z.core.$ZodType;
  limits?: ReadLimits;
  /**
   * Check the rows against this endpoint (of the built-in registry) where they are parsed, with the
   * run's clock, giving what the reader needs of each record.
   */
  check?: ReadCheck;
}

/**
 * A row longer than the limit: the one parse error that stays a located issue (the others stop the run,
 * csvStopped.ts).
 */
function tooLong(limits: ReadLimits): Issue {
  return error(
    'record-too-large',
    '',
    `a row here is longer than the limit of ${limits.maxRecordBytes.toLocaleString('en-US')} ` +
      `characters; reading stopped`,
    { hint: 'check the file for an unclosed quote, or raise --max-record-bytes' },
  );
}

export { INLINE_PARSE_BYTES } from './inputHead.js';

/** Far past any export of the service's records (a few hundred columns, a few thousand with many numbered items). */
export const MAX_CSV_COLUMNS = 10_000;

function tooManyColumns(header: readonly string[]): Issue {
  const first = header
    .slice(0, 5)
    .map((name) => JSON.stringify(name))
    .join(', ');
  return error(
    'too-many-columns',
    '',
    `the header has ${header.length.toLocaleString('en-US')} columns (${first}, …), more than the ` +
      `${MAX_CSV_COLUMNS.toLocaleString('en-US')} any export of the service's records fills; the file ` +
      `was not read`,
    {
      hint:
        'check that this is the right file and that its separator is a comma; keep only the columns ' +
        'of `collect template`',
    },
  );
}

/**
 * Records of a CSV input: the header names fields, each row becomes a nested record
 * starting on its own line (blank lines and multi-line cells counted). With `check`, every row
 * comes checked against its endpoint by the thread that parsed it (a piece worker or this thread on a large input).
 */
export function readCsvRecords(
  bytes: AsyncIterable<Buffer>,
  file: string,
  options: CsvOptions,
): AsyncGenerator<SourceRecord> {
  const limits = options.limits ?? defaultLimits;
  return readRowRecords((staging) => parseCsvRows(bytes, limits.maxRecordBytes, staging), file, options);
}

/**
 * Records of an input of rows of cells under a header (CSV, Parquet: decode/inputFormats.ts), from
 * its `rows`: each row becomes a nested record, built and checked where the rows are read.
 */
export async function* readRowRecords(
  rows: RowSource,
  file: string,
  options: CsvOptions,
): AsyncGenerator<SourceRecord> {
  const limits = options.limits ?? defaultLimits;
  let header: readonly string[] | undefined;
  let plan: CsvPlan | undefined;
  /** What the header says, to yield before its rows. */
  let said: SourceRecord | undefined;
  let index = 0;
  const staging: Staging = {
    plan(cells, line) {
      // A rejects file collect wrote (it has the reasons column): its cells carry the formula guard to remove.
      const restore = cells.includes(REASON_FIELD);
      header = restore ? cells.map(restoreFormula) : cells;
      if (header.length > MAX_CSV_COLUMNS) {
        // A header this wide is not an export of the service's records: one verdict for the file, not one per column.
        said = { file, index: null, line, issues: [tooManyColumns(header)] };
        return undefined;
      }
      const planned = planCsvColumns(header, options.schema, compileRowBuilder);
      plan = planned.plan;
      if (planned.issues.length > 0) said = { file, index: null, line, issues: planned.issues };
      const check = options.check;
      return {
        columns: plan.columns,
        width: plan.width,
        restore,
        now: check?.now.getTime() ?? 0,
        rows: (check?.needs ?? 'values') === 'values',
        digest: check !== undefined && check.needs !== 'ids',
        ...(check ? { endpoint: check.endpoint } : {}),
      };
    },
  };
  for await (const batch of rows(staging)) {
    if (said) yield said;
    said = undefined;
    const staged = batch.staged;
    if (staged && plan && header) {
      for (let n = 0; n < staged.lines.length; n++) {
        const at = index++;
        const line = staged.lines[n]!;
        const cells = staged.rows[n];
        const checked = staged.checked?.[n];
        if (!cells) {
          yield { file, index: at, line, issues: checked!.issues, fieldsChecked: true, checked: checked! };
          continue;
        }
        const built = rowToRecord(plan, cells);
        const raw = { kind: 'csv', header, cells } as const;
        yield checked
          ? {
              file,
              index: at,
              line,
              value: built.value,
              issues: checked.issues,
              fieldsChecked: true,
              checked,
              raw,
            }
          : { file, index: at, line, value: built.value, issues: built.issues, fieldsChecked: true, raw };
      }
    }
    if (batch.error) stopAtCsvError(file, batch.error);
    if (batch.error)
      yield {
        file,
        index: header ? index : null,
        line: batch.error.line,
        issues: [tooLong(limits)],
      };
  }
  if (said) yield said;
}

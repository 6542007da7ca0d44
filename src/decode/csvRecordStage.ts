import { checkRecord, type CheckedRecord } from '../check/checkRecord.js';
import { columnsHash } from '../fast/recordHash.js';
import { validatorOf } from '../fast/fastValidator.js';
import { restoreFormula } from '../convert/formulaCells.js';
import type { CsvColumn } from '../convert/csvColumn.js';
import { buildRowGeneric } from '../convert/csvColumns.js';
import { compileRowBuilder } from '../fast/compiledRowBuilder.js';
import { registry } from '../resources/registry.js';

/** What the thread that parses a CSV file needs to check its rows: the plan of its header, as plain data. */
export interface StagePlan {
  columns: CsvColumn[];
  width: number;
  /** A rejects file collect wrote: its cells lose the formula guard. */
  restore: boolean;
  /** The endpoint whose schema and checks the rows are held to; none: the rows are only built. */
  endpoint?: string;
  /** The run's clock (checks of dates in the future), in milliseconds. */
  now: number;
  /** False: checked rows are not sent back (the reader needs only their lines, issues and order ids, or digests). */
  rows: boolean;
  /** Each checked row's flow facts and content hash are worked out where it is checked. */
  digest: boolean;
}

/** Rows of one CSV file: each row's cells and line, and with an endpoint each row's check, by position. */
export interface StagedRows {
  lines: number[];
  /** Each row's cells (formula guard removed); empty when the plan asked for checked rows without them. */
  rows: string[][];
  /** With an endpoint: each row's check (check/checkRecord.ts), by position. */
  checked?: CheckedRecord[];
  /**
   * When rows may give no record (a mapping's `when:`): the row each record came from, and how many rows
   * there were.
   */
  positions?: number[];
  rowCount?: number;
}

/** Builds and checks rows with a header's plan, on whichever thread parses the file. */
export function createRowStage(plan: StagePlan): (rows: string[][], lines: number[]) => StagedRows {
  const build =
    compileRowBuilder(plan.columns, plan.width) ??
    ((cells: readonly string[]) => buildRowGeneric(plan.columns, plan.width, cells));
  const resource = plan.endpoint === undefined ? undefined : registry.get(plan.endpoint);
  // The rows of one header build records of one shape: their hash is compiled for it.
  const check = {
    now: new Date(plan.now),
    fieldsChecked: true,
    digest: plan.digest,
    validatorOf,
    ...(resource ? { hashOf: columnsHash(resource.name, plan.columns) } : {}),
  };
  return (rows, lines) => {
    const staged: StagedRows = { rows, lines };
    if (!resource && !plan.restore) return staged; // the thread that reads them builds and checks them
    const checked: CheckedRecord[] = [];
    for (let n = 0; n < rows.length; n++) {
      if (plan.restore) rows[n] = rows[n]!.map(restoreFormula);
      if (!resource) continue;
      const { value, issues } = build(rows[n]!);
      checked.push(checkRecord(resource, value, issues, check));
    }
    if (resource) staged.checked = checked;
    if (resource && !plan.rows) staged.rows = [];
    return staged;
  };
}

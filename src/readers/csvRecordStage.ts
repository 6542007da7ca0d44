import type { Issue } from '../core/issue.js';
import { compiledFrom } from '../core/compiledFrom.js';
import { contentHash } from '../flow/canonical.js';
import { compileContentHash } from '../flow/compiledHash.js';
import type { Facts } from '../resources/resource.js';
import { restoreFormula } from '../convert/formulaCells.js';
import type { CsvColumn } from '../convert/csvColumn.js';
import { buildRowGeneric } from '../convert/csvColumns.js';
import { compileRowBuilder } from '../convert/compileRow.js';
import { registry } from '../resources/registry.js';
import { validateRecord } from '../validate/validateRecord.js';

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

/**
 * Rows of one CSV file, checked: each row's cells (formula guard removed) and line, and every
 * problem of the rows that have any (conversion and schema), by position in the batch.
 */
export interface StagedRows {
  lines: number[];
  issues: { at: number; issues: Issue[] }[];
  /** Whether `issues` holds the whole check of each row (the endpoint's schema and checks). */
  validated: boolean;
  /** Each row's cells; empty when the plan asked for checked rows without them. */
  rows: string[][];
  /** When validated: each row's order id ('' when it has none), so a run that needs nothing else never builds the record again. */
  orderIds: string[];
  /** With `digest`: each row's flow facts (null: it names no order) and content hash ('' with no facts). */
  facts?: (Facts | null)[];
  hashes?: string[];
  /** When rows may give no record (a mapping's `when:`): the row each record came from, and how many rows there were. */
  positions?: number[];
  rowCount?: number;
}

/**
 * Rows of a file hashed by contentHash before the header's compiled hash takes over: until V8 has
 * optimised the generated code it runs several times slower than contentHash, and early in a run
 * the compiler is busy with everything else (measured on two cores, A/B wall against the compiled
 * hash from the first row: 0.95 on a 20k-order dry run, 0.90 on a 200k-order one).
 */
const PLAIN_HASHES = 2000;

/** The hash of a header's rows: contentHash for the first rows, the compiled one from the PLAIN_HASHES-th on, if any. */
function rowHash(endpoint: string, columns: CsvColumn[]): (value: Record<string, unknown>) => string {
  return compiledFrom(PLAIN_HASHES, (value) => contentHash(endpoint, value), () => compileContentHash(endpoint, columns));
}

/** Builds and checks rows with a header's plan, on whichever thread parses the file. */
export function createRowStage(plan: StagePlan): (rows: string[][], lines: number[]) => StagedRows {
  const build = compileRowBuilder(plan.columns, plan.width) ?? ((cells: readonly string[]) => buildRowGeneric(plan.columns, plan.width, cells));
  const resource = plan.endpoint === undefined ? undefined : registry.get(plan.endpoint);
  const context = { now: new Date(plan.now) };
  // The rows of one header build records of one shape: their hash is compiled for it (rowHash).
  const hashOf = resource && plan.digest ? rowHash(resource.name, plan.columns) : undefined;
  return (rows, lines) => {
    const staged: StagedRows = { rows, lines, issues: [], validated: resource !== undefined, orderIds: [] };
    if (!resource && !plan.restore) return staged; // the thread that reads them builds and checks them
    const facts: (Facts | null)[] = [];
    const hashes: string[] = [];
    if (resource && plan.digest) {
      staged.facts = facts;
      staged.hashes = hashes;
    }
    for (let n = 0; n < rows.length; n++) {
      if (plan.restore) rows[n] = rows[n]!.map(restoreFormula);
      if (!resource) continue;
      const { value, issues } = build(rows[n]!);
      const found = validateRecord(resource, value, context, issues, { fieldsChecked: true });
      const id = value[resource.orderField];
      staged.orderIds.push(typeof id === 'string' ? id : '');
      if (found.length > 0) staged.issues.push({ at: n, issues: found });
      if (!plan.digest) continue;
      const known = resource.facts(value);
      facts.push(known);
      hashes.push(known ? hashOf!(value) : '');
    }
    if (resource && !plan.rows) staged.rows = [];
    return staged;
  };
}

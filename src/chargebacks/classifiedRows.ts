import { warning } from '../core/issue.js';
import type { ChargebackRow } from './chargebackRow.js';
import type { MatchResult, RowOutcome, RowVerdict } from './matchChargebacks.js';
import { outcomes } from './matchSources.js';
import type { ReasonTable } from './reasonCategories.js';
import { rowCategory } from './reasonNames.js';
import type { ReportRow } from './readChargebacks.js';

/** The values A.0.9 shows on each row as read: only those the row has. */
function readValues({
  network,
  reason_code,
  amount,
  currency,
}: ChargebackRow): NonNullable<RowVerdict['read']> {
  return {
    ...(network === undefined ? {} : { network }),
    ...(reason_code === undefined ? {} : { reason_code }),
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
  };
}

/**
 * The match of a report whose rows are not all chargebacks (A.0.4): fraud notices and the stages
 * that carry no chargeback are counted and listed, never matched or sent; the chargebacks go
 * through `match`. Every row gets its reason's category, and a code or name the table lacks a
 * warning naming it (A.R).
 */
export function withClassifiedRows(
  rows: readonly ReportRow[],
  table: ReasonTable,
  match: (chargebacks: readonly ReportRow[]) => MatchResult,
): MatchResult {
  const positions: number[] = [];
  const chargebacks: ReportRow[] = [];
  for (const [i, row] of rows.entries())
    if (row.rowClass === undefined) {
      positions.push(i);
      chargebacks.push(row);
    }
  const inner = match(chargebacks);
  const verdicts: RowVerdict[] = new Array<RowVerdict>(rows.length);
  for (const [j, verdict] of inner.verdicts.entries()) verdicts[positions[j]!] = verdict;
  for (const [i, read] of rows.entries()) {
    const classed = read.rowClass;
    if (classed === undefined) continue;
    verdicts[i] = {
      file: read.file,
      index: read.index,
      line: read.line,
      outcome: classed,
      ...(read.kind ? { kind: read.kind } : {}),
      acquirerId: read.row?.acquirer_id,
      orderId: read.row?.order_id,
      issues: read.issues,
    };
  }
  for (const [i, verdict] of verdicts.entries()) {
    const row = rows[i]!.row;
    if (row) verdict.read = readValues(row);
    if (!row || (row.reason_code === undefined && row.reason === undefined)) continue;
    const { category, known } = rowCategory(table, row);
    verdict.category = category;
    // A code, or a name written as an identifier (ABSENT_CARD_FRAUD), on a chargeback: free text is no name to look up.
    const named = row.reason_code !== undefined || /^[a-z0-9]+(_[a-z0-9]+)+$/i.test(row.reason ?? '');
    if (!known && named && rows[i]!.rowClass === undefined)
      verdict.issues = [
        ...verdict.issues,
        warning(
          'unknown-reason-code',
          row.reason_code === undefined ? 'reason' : 'reason_code',
          `${row.network ?? 'the'} reason ${row.reason_code === undefined ? 'name' : 'code'} "` +
            `${row.reason_code ?? row.reason ?? ''}" is in no category collect knows: category unknown`,
          { hint: 'add it with --reason-categories FILE (network,reason_code,category)' },
        ),
      ];
  }
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<RowOutcome, number>;
  for (const verdict of verdicts) counts[verdict.outcome]++;
  return {
    verdicts,
    marks: inner.marks.map((mark) => ({ ...mark, rows: mark.rows.map((j) => positions[j]!) })),
    counts,
    matchedBy: inner.matchedBy,
  };
}

import { error, warning, type Issue, type RecordLocation } from '../core/issue.js';
import type { ChargebackRow } from './chargebackRow.js';
import { fraudComment, type ChargebackFacts } from './fraudComment.js';
import type { ReasonTable } from './reasonCategories.js';
import { rowCategory } from './reasonNames.js';
import { resolveRow } from './resolveRow.js';
import { matchKeys, outcomes, type MatchKey, type MatchSources, type RowOutcome } from './matchSources.js';

export {
  matchKeys,
  outcomes,
  type MatchKey,
  type MatchSources,
  type OrderFacts,
  type Owner,
  type RowOutcome,
} from './matchSources.js';

/** One row read from a report: its place, its fields when it could be read, and what reading found. */
export interface ReadRow extends RecordLocation {
  row?: ChargebackRow | undefined;
  issues: readonly Issue[];
}

export interface RowVerdict extends RecordLocation {
  outcome: RowOutcome;
  acquirerId?: string | undefined;
  orderId?: string | undefined;
  /** The cascade's key that found the order (resolved rows: matched, already-marked, refused, not-fraud). */
  matchedBy?: MatchKey | undefined;
  category?: string | undefined;
  /** A `not-chargeback` row's stage (source-files.md A.0.4). */
  kind?: string;
  /** The row's network, reason code, amount and currency as read (A.0.9). */
  read?: Pick<ChargebackRow, 'network' | 'reason_code' | 'amount' | 'currency'>;
  issues: readonly Issue[];
}

/** One mark to send: an order, the rows it stands for, and its comment. */
export interface PlannedMark {
  orderId: string;
  rows: number[];
  body: { order_id: string; fraud_signal_type: 'chargeback'; fraud_comment: string };
}

export interface MatchResult {
  verdicts: RowVerdict[];
  marks: PlannedMark[];
  counts: Record<RowOutcome, number>;
  /** Matched rows per key of the cascade. */
  matchedBy: Record<MatchKey, number>;
}

const factsOf = (row: ChargebackRow, table: ReasonTable): ChargebackFacts => ({
  network: row.network,
  reasonCode: row.reason_code,
  reason: row.reason,
  entry: rowCategory(table, row).entry,
  amount: row.amount,
  currency: row.currency,
  receivedAt: row.received_at,
  arn: row.arn,
});

/**
 * Each row of a chargeback report to its order (pure: the sources are lookups), and the marks to
 * send: one per order, whatever the number of its rows; never one for an order the service
 * declined (§1.5) or one already marked as a chargeback.
 */
export function matchChargebacks(
  rows: readonly ReadRow[],
  sources: MatchSources,
  options: { table: ReasonTable; onlyFraud: boolean },
): MatchResult {
  const verdicts: RowVerdict[] = [];
  const byOrder = new Map<string, number[]>();
  for (const read of rows) {
    const { row } = read;
    const location = { file: read.file, index: read.index, line: read.line };
    const errors = read.issues.filter((issue) => issue.severity === 'error');
    if (!row || errors.length > 0) {
      verdicts.push({ ...location, outcome: 'invalid', issues: read.issues });
      continue;
    }
    const base = {
      ...location,
      acquirerId: row.acquirer_id,
      category:
        row.reason_code === undefined && row.reason === undefined
          ? undefined
          : rowCategory(options.table, row).category,
    };
    const resolved = resolveRow(row, sources);
    if ('outcome' in resolved) {
      verdicts.push({
        ...base,
        outcome: resolved.outcome,
        orderId: row.order_id,
        issues: [...read.issues, resolved.issue],
      });
      continue;
    }
    const { orderId, matchedBy } = resolved;
    const facts = sources.order(orderId);
    const at = { ...base, orderId, matchedBy };
    if (facts?.decision === 'reject') {
      verdicts.push({
        ...at,
        outcome: 'refused',
        issues: [
          ...read.issues,
          error(
            'fraud-after-service-decline',
            'order_id',
            `the service's own evaluation rejected order "${orderId}": a fraud mark must not be sent for it (§1.5)`,
            {
              value: orderId,
              hint: 'nothing is sent; dispute the chargeback with the acquirer instead',
            },
          ),
        ],
      });
    } else if (facts?.fraudTypes.includes('chargeback')) {
      verdicts.push({ ...at, outcome: 'already-marked', issues: read.issues });
    } else if (options.onlyFraud && base.category !== 'fraud') {
      verdicts.push({
        ...at,
        outcome: 'not-fraud',
        issues: [
          ...read.issues,
          warning(
            'not-fraud',
            'reason_code',
            base.category === undefined || base.category === 'unknown'
              ? `reason code "${row.reason_code ?? ''}" has no known category: not sent with --only-fraud`
              : `reason code "${row.reason_code ?? ''}" is ${base.category}, not fraud: not sent with --only-fraud`,
            {
              hint: 'add the code to --reason-categories if it is fraud',
            },
          ),
        ],
      });
    } else {
      verdicts.push({ ...at, outcome: 'matched', issues: read.issues });
      const list = byOrder.get(orderId);
      if (list) list.push(verdicts.length - 1);
      else byOrder.set(orderId, [verdicts.length - 1]);
    }
  }
  const marks = [...byOrder].map(([orderId, indexes]) => ({
    orderId,
    rows: indexes,
    body: {
      order_id: orderId,
      fraud_signal_type: 'chargeback' as const,
      fraud_comment: fraudComment(indexes.map((i) => factsOf(rows[i]!.row!, options.table))),
    },
  }));
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<RowOutcome, number>;
  const matchedBy = Object.fromEntries(matchKeys.map((k) => [k, 0])) as Record<MatchKey, number>;
  for (const verdict of verdicts) {
    counts[verdict.outcome]++;
    if (verdict.outcome === 'matched' && verdict.matchedBy) matchedBy[verdict.matchedBy]++;
  }
  return { verdicts, marks, counts, matchedBy };
}

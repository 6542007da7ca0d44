import type { ReasonEntry } from './reasonCategories.js';

/** What one chargeback row says about itself, as the comment writes it. */
export interface ChargebackFacts {
  network?: string | undefined;
  reasonCode?: string | undefined;
  reason?: string | undefined;
  entry?: ReasonEntry | undefined;
  amount?: number | undefined;
  currency?: string | undefined;
  receivedAt?: string | undefined;
  arn?: string | undefined;
}

/** The service takes any text; a comment longer than this is cut (a report with dozens of rows for one order). */
export const MAX_COMMENT = 1000;

/**
 * One chargeback in words: `visa 10.4 (fraud: other fraud: card-absent environment), 129.9 BRL, received
 * 2024-04-02, ARN 7453...`.
 */
export function describeChargeback(facts: ChargebackFacts): string {
  const reason = [facts.network?.trim().toLowerCase(), facts.reasonCode?.trim()].filter(Boolean).join(' ');
  const why = facts.entry
    ? `${facts.entry.category}${facts.entry.label ? `: ${facts.entry.label}` : ''}`
    : facts.reasonCode !== undefined
      ? 'category unknown'
      : undefined;
  const said = facts.reason?.trim() ? `"${facts.reason.trim()}"` : undefined;
  const parts = [
    [reason || 'reason code not given', why ? `(${why})` : undefined, said].filter(Boolean).join(' '),
    facts.amount === undefined ? undefined : [String(facts.amount), facts.currency].filter(Boolean).join(' '),
    facts.receivedAt ? `received ${facts.receivedAt}` : undefined,
    facts.arn ? `ARN ${facts.arn}` : undefined,
  ];
  return parts.filter(Boolean).join(', ');
}

/** The fraud_comment of one order's mark: its chargebacks, in report order; two rows for one order are one mark. */
export function fraudComment(chargebacks: readonly ChargebackFacts[]): string {
  const described = chargebacks.map(describeChargeback);
  const text =
    described.length === 1
      ? `chargeback: ${described[0]!}`
      : `${described.length} chargebacks: ${described.join('; ')}`;
  return text.length <= MAX_COMMENT ? text : `${text.slice(0, MAX_COMMENT - 1)}…`;
}

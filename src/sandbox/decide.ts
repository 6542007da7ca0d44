import { isRecord } from '../schema/checks.js';

export interface DecisionRules {
  /** total_paid_value above this: reject. */
  rejectAbove: number;
  /** total_paid_value above this (and not rejected): manual review. */
  reviewAbove: number;
  /** Card BINs (first six digits) that are rejected. */
  blockedBins: readonly string[];
}

export const defaultRules: DecisionRules = { rejectAbove: 1000, reviewAbove: 500, blockedBins: ['400000'] };

/** The sandbox's evaluation: deterministic, with the reason it was reached. */
export function decide(
  order: Record<string, unknown>,
  rules: DecisionRules,
): { decision: 'approve' | 'reject' | 'manual'; reason: string } {
  const payments = Array.isArray(order.payments) ? order.payments.filter(isRecord) : [];
  for (const payment of payments) {
    const bin = isRecord(payment.card) ? payment.card.first_six_digits : undefined;
    if (typeof bin === 'string' && rules.blockedBins.includes(bin))
      return { decision: 'reject', reason: `card BIN ${bin} is blocked` };
  }
  const value = typeof order.total_paid_value === 'number' ? order.total_paid_value : 0;
  if (value > rules.rejectAbove)
    return {
      decision: 'reject',
      reason: `total_paid_value ${value} is above the reject threshold ${rules.rejectAbove}`,
    };
  if (value > rules.reviewAbove)
    return {
      decision: 'manual',
      reason: `total_paid_value ${value} is above the review threshold ${rules.reviewAbove}`,
    };
  return {
    decision: 'approve',
    reason: `total_paid_value ${value} is within the thresholds and no card BIN is blocked`,
  };
}

import { describe, expect, it } from 'vitest';
import { describeChargeback, fraudComment, MAX_COMMENT } from './fraudComment.js';

describe('fraudComment', () => {
  it('carries the network, code, category, amount, date and ARN of one chargeback', () => {
    expect(
      fraudComment([
        {
          network: 'Visa',
          reasonCode: '10.4',
          entry: { category: 'fraud', label: 'other fraud: card-absent environment' },
          amount: 129.9,
          currency: 'BRL',
          receivedAt: '2024-04-02',
          arn: '745',
        },
      ]),
    ).toBe(
      'chargeback: visa 10.4 (fraud: other fraud: card-absent environment), 129.9 BRL, received 2024-04-02, ARN 745',
    );
  });

  it('says when a code has no known category, and keeps the free-text reason', () => {
    expect(describeChargeback({ network: 'elo', reasonCode: '71', reason: ' not recognised ' })).toBe(
      'elo 71 (category unknown) "not recognised"',
    );
    expect(describeChargeback({})).toBe('reason code not given');
  });

  it('cuts a comment of many chargebacks at its limit', () => {
    const many = Array.from({ length: 100 }, () => ({
      network: 'visa',
      reasonCode: '10.4',
      arn: '1'.repeat(23),
    }));
    const comment = fraudComment(many);
    expect(comment.startsWith('100 chargebacks: ')).toBe(true);
    expect(comment).toHaveLength(MAX_COMMENT);
  });
});

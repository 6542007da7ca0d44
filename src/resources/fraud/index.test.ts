import { describe, expect, it } from 'vitest';
import { problems } from '../../../test/helpers/problems.js';
import { fraudResource } from './index.js';

describe('fraud mark (§2.2)', () => {
  it('accepts the example and every signal type that needs no comment', () => {
    expect(problems(fraudResource, fraudResource.example)).toEqual([]);
    for (const type of ['acquirer', 'manual_analysis', 'chargeback']) {
      expect(problems(fraudResource, { order_id: 'A', fraud_signal_type: type })).toEqual([]);
    }
  });
  it('requires order_id and fraud_signal_type, and a signal type from the list', () => {
    expect(problems(fraudResource, {})).toEqual([
      'error required @order_id',
      'error required @fraud_signal_type',
    ]);
    expect(problems(fraudResource, { order_id: 'A', fraud_signal_type: 'friendly_fraud' })).toEqual([
      'error invalid-enum @fraud_signal_type',
    ]);
    expect(problems(fraudResource, { order_id: '', fraud_signal_type: 'chargeback' })).toEqual([
      'error empty-value @order_id',
    ]);
  });
  it('requires fraud_comment for third_party_antifraud', () => {
    expect(problems(fraudResource, { order_id: 'A', fraud_signal_type: 'third_party_antifraud' })).toEqual([
      'error fraud-comment-required @fraud_comment',
    ]);
    expect(
      problems(fraudResource, {
        order_id: 'A',
        fraud_signal_type: 'third_party_antifraud',
        fraud_comment: '  ',
      }),
    ).toEqual(['error fraud-comment-required @fraud_comment']);
    expect(
      problems(fraudResource, {
        order_id: 'A',
        fraud_signal_type: 'third_party_antifraud',
        fraud_comment: 'OtherShield',
      }),
    ).toEqual([]);
  });
  it('recommends fraud_comment for other (a warning)', () => {
    expect(problems(fraudResource, { order_id: 'A', fraud_signal_type: 'other' })).toEqual([
      'warning fraud-comment-recommended @fraud_comment',
    ]);
    expect(
      problems(fraudResource, { order_id: 'A', fraud_signal_type: 'other', fraud_comment: 'bot pattern' }),
    ).toEqual([]);
  });
  it('names the right field when the signal type is sent as status', () => {
    expect(problems(fraudResource, { order_id: 'A', status: 'chargeback' })).toEqual([
      'warning unknown-field @status',
      'error fraud-field-named-status @fraud_signal_type',
    ]);
  });
});

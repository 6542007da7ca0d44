import { describe, expect, it } from 'vitest';
import { problems } from '../../../test/helpers/problems.js';
import { paymentResource } from './index.js';

describe('payment update (§2.6)', () => {
  it('accepts the example', () => {
    expect(problems(paymentResource, paymentResource.example)).toEqual([]);
  });
  it('requires id, order_id and acquirer_id, all non-empty', () => {
    expect(problems(paymentResource, {})).toEqual([
      'error required @id',
      'error required @order_id',
      'error required @acquirer_id',
    ]);
    expect(problems(paymentResource, { id: 'P', order_id: 'O', acquirer_id: '' })).toEqual([
      'error empty-value @acquirer_id',
    ]);
  });
  it('rejects a number where a string goes', () => {
    expect(problems(paymentResource, { id: 'P', order_id: 'O', acquirer_id: 778899 })).toEqual([
      'error invalid-type @acquirer_id',
    ]);
  });
});

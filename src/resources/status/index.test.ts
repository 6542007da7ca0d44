import { describe, expect, it } from 'vitest';
import { problems } from '../../../test/helpers/problems.js';
import { statusResource } from './index.js';

describe('status update (§2.1)', () => {
  it('accepts the example and every status', () => {
    expect(problems(statusResource, statusResource.example)).toEqual([]);
    for (const status of [
      'approved',
      'declined',
      'pending',
      'cancelled',
      'manual_analysis',
      'unauthorized',
    ]) {
      expect(problems(statusResource, { id: 'A', status })).toEqual([]);
    }
  });
  it('requires a non-empty id and a status', () => {
    expect(problems(statusResource, {})).toEqual(['error required @id', 'error required @status']);
    expect(problems(statusResource, { id: '', status: 'approved' })).toEqual(['error empty-value @id']);
  });
  it('rejects a status outside the six and suggests the close one', () => {
    const issues = problems(statusResource, { id: 'A', status: 'Approved' });
    expect(issues).toEqual(['error invalid-enum @status']);
  });
  it('rejects a number as id, an array as custom_data, and warns about unknown fields', () => {
    expect(problems(statusResource, { id: 7, status: 'approved', custom_data: [1], statuss: 'x' })).toEqual([
      'error invalid-type @id',
      'error invalid-type @custom_data',
      'warning unknown-field @statuss',
    ]);
  });
  it('rejects a status_reason that is not a string', () => {
    expect(problems(statusResource, { id: 'A', status: 'approved', status_reason: 5 })).toEqual([
      'error invalid-type @status_reason',
    ]);
  });
});

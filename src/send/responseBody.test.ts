import { describe, expect, it } from 'vitest';
import { readDecision, serviceMessage } from './responseBody.js';

describe('readDecision', () => {
  it('reads any top-level key ending in decision', () => {
    expect(readDecision({ legiti_decision: 'reject', message: 'x' })).toBe('reject');
    expect(readDecision({ decision: 'approve' })).toBe('approve');
    expect(readDecision({ message: 'ok' })).toBeUndefined();
    expect(readDecision('reject')).toBeUndefined();
  });
});

describe('serviceMessage', () => {
  it('gives the message of both error shapes of docs/payloads.md', () => {
    expect(serviceMessage({ error_message: 'Invalid JSON', error_code: 1 }, '')).toBe('Invalid JSON');
    expect(
      serviceMessage(
        { error_message: { status: ['Not a valid choice.'], id: ['Required.', 'Too short.'] } },
        '',
      ),
    ).toBe('status: Not a valid choice., id: Required.; Too short.');
    expect(serviceMessage(undefined, '<html>Bad Gateway</html>')).toBe('<html>Bad Gateway</html>');
  });
});

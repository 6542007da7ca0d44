import { describe, expect, it } from 'vitest';
import { answeredFate, awaitsCreation, CREATION_WAITS, fateName, heldFate, reasonOf } from './eventFate.js';

describe('the fate of a relayed event', () => {
  it('dead-letters a refused event with the service message, and defers a failure for a passing reason', () => {
    expect(answeredFate({ kind: 'rejected', status: 422, text: '', message: 'bad id', attempts: 1 })).toEqual(
      {
        settlement: {
          state: 'dead',
          reason: { code: 'rejected-by-service', status: 422, message: 'bad id' },
        },
        status: 422,
      },
    );
    expect(
      answeredFate({ kind: 'failed', reason: 'HTTP 503 (after 6 attempts)', attempts: 6 }),
    ).toBeUndefined();
    expect(answeredFate({ kind: 'not-sent', reason: 'the run stopped' })).toBeUndefined();
    expect(answeredFate({ kind: 'accepted', status: 201, text: '', attempts: 1 })).toEqual({
      settlement: { state: 'sent' },
      status: 201,
    });
  });

  it('names the first error as the reason, its field first, and keeps every issue', () => {
    const reason = reasonOf([
      { severity: 'warning', code: 'status-unchanged', path: 'status', message: 'same status' },
      { severity: 'error', code: 'invalid-enum', path: 'status', message: 'status must be one of: approved' },
    ]);
    expect(reason).toMatchObject({
      code: 'invalid-enum',
      message: 'status: status must be one of: approved',
    });
    expect(reason.issues).toHaveLength(2);
  });

  it('tells the way out of a hold: the creation to fix and the retry command', () => {
    const held = heldFate('ORD-7', 'collect_outbox', 41);
    expect(fateName(held)).toBe('held');
    expect(held.state === 'held' && held.reason.message).toContain('collect relay retry --id 41');
    expect(fateName({ state: 'sent', note: 'repeat' })).toBe('repeat');
  });

  it('puts back an update of an unknown order a few times (its creation may commit late), then dead-letters it', () => {
    const unknown = {
      severity: 'error' as const,
      code: 'unknown-order',
      path: 'id',
      message: 'unknown order',
    };
    const invalid = {
      severity: 'error' as const,
      code: 'invalid-enum',
      path: 'status',
      message: 'bad status',
    };
    expect(awaitsCreation([unknown], 0)).toBe(true);
    expect(awaitsCreation([unknown], CREATION_WAITS)).toBe(false);
    // A record that is wrong in itself gains nothing by waiting.
    expect(awaitsCreation([unknown, invalid], 0)).toBe(false);
    expect(awaitsCreation([invalid], 0)).toBe(false);
  });
});

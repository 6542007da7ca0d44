import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../core/depth.js';
import { parseEvent, tooLarge } from './eventLimits.js';

describe('parseEvent', () => {
  it('reads a JSON value', () => {
    expect(parseEvent('{"endpoint":"status","body":{"id":"A"}}')).toEqual({
      value: { endpoint: 'status', body: { id: 'A' } },
    });
  });

  it('makes text that is not JSON an invalid-event issue', () => {
    expect(parseEvent('{"endpoint":')).toMatchObject({ problem: { code: 'invalid-event' } });
  });

  it('makes a value nested 100,000 deep a too-deep issue, without overflowing the stack', () => {
    const deep = `{"body":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseEvent(deep)).toMatchObject({ problem: { code: 'too-deep', severity: 'error' } });
    const justDeepEnough = `${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`;
    expect(parseEvent(justDeepEnough)).toHaveProperty('value');
  });
});

describe('tooLarge', () => {
  it('names the size, the limit and the way out', () => {
    const issue = tooLarge(20_971_520, 1_048_576);
    expect(issue).toMatchObject({ code: 'record-too-large', severity: 'error' });
    expect(issue.message).toBe(
      "the event's body is 20,971,520 bytes long, over the limit of 1,048,576 bytes",
    );
    expect(issue.hint).toContain('collect relay retry');
  });
});

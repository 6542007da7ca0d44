import { describe, expect, it } from 'vitest';
import { chooseState } from './stateChoice.js';

describe('chooseState', () => {
  it('a dry run pointed at nothing uses no state, so its verdict depends on its inputs alone', () => {
    expect(chooseState({ sending: false })).toEqual({ stateDir: null, remember: false, readOnly: true });
  });

  it('a dry run records what it found valid only with an explicit --state', () => {
    expect(chooseState({ sending: false, state: 'st' })).toEqual({
      stateDir: 'st',
      remember: true,
      readOnly: false,
    });
    expect(chooseState({ sending: false, envState: 'env' })).toEqual({
      stateDir: 'env',
      remember: false,
      readOnly: true,
    });
  });

  it("a dry run with --base-url reads that service's state in .collect, without writing it", () => {
    expect(chooseState({ sending: false, baseUrl: 'https://x.test' })).toEqual({
      stateDir: '.collect',
      remember: false,
      readOnly: true,
    });
    expect(chooseState({ sending: false, baseUrl: 'https://x.test', state: 'st' })).toEqual({
      stateDir: 'st',
      remember: false,
      readOnly: true,
    });
  });

  it('a send keeps its state: --state, then COLLECT_STATE, then .collect', () => {
    expect(chooseState({ sending: true })).toEqual({
      stateDir: '.collect',
      remember: false,
      readOnly: false,
    });
    expect(chooseState({ sending: true, envState: 'env' }).stateDir).toBe('env');
    expect(chooseState({ sending: true, envState: 'env', state: 'st' }).stateDir).toBe('st');
    expect(chooseState({ sending: true, state: false }).stateDir).toBeNull();
  });
});

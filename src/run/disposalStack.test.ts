import { describe, expect, it } from 'vitest';
import { DisposalStack } from './disposalStack.js';

describe('DisposalStack', () => {
  it('releases in reverse order of taking, awaiting each', async () => {
    const stack = new DisposalStack();
    const released: string[] = [];
    stack.adopt('state', (name) => released.push(name));
    stack.defer(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      released.push('lock');
    });
    stack.adopt('client', (name) => released.push(name));
    await stack.dispose();
    expect(released).toEqual(['client', 'lock', 'state']);
  });

  it('runs every release when one throws, then throws the first with the others attached', async () => {
    const stack = new DisposalStack();
    const released: string[] = [];
    stack.defer(() => released.push('state'));
    stack.defer(() => {
      throw new Error('lock');
    });
    stack.defer(() => Promise.reject(new Error('client')));
    const failure = await stack
      .dispose()
      .catch((cause: unknown) => cause as Error & { suppressed?: Error[] });
    expect(released).toEqual(['state']);
    expect(failure?.message).toBe('client');
    expect(failure?.suppressed?.map((error) => error.message)).toEqual(['lock']);
  });

  it('releases once, and takes nothing more after', async () => {
    const stack = new DisposalStack();
    let count = 0;
    stack.defer(() => count++);
    await stack.dispose();
    await stack.dispose();
    expect(count).toBe(1);
    expect(() => stack.defer(() => {})).toThrow();
  });
});

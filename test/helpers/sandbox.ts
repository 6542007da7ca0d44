import { onTestFinished } from 'vitest';
import { defaultRules } from '../../src/sandbox/decide.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export type TestSandbox = Sandbox & {
  /** What the sandbox holds of an order (GET /_sandbox/orders/ID), undefined when it has none. */
  held: <T = Record<string, unknown>>(orderId: string) => Promise<T | undefined>;
};

/**
 * The sandbox as tests use it: on 127.0.0.1 at a free port, no faults, no delays, the default
 * decision rules, unless `options` says otherwise. `close` may be called more than once (a test
 * closes it to read what it recorded; the end of the test closes it again). A hook that starts one
 * closes it itself (beforeAll returns `sandbox.close`).
 */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 1,
    slowMs: 0,
    retryAfterSeconds: 0,
    rules: defaultRules,
    faults: { fail: 0, throttle: 0, slow: 0, reset: 0 },
    ...options,
  });
  const closeOnce = sandbox.close;
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= closeOnce());
  const held = async <T>(orderId: string): Promise<T | undefined> => {
    const response = await fetch(`${sandbox.url}/_sandbox/orders/${encodeURIComponent(orderId)}`);
    return response.status === 200 ? ((await response.json()) as T) : undefined;
  };
  return Object.assign(sandbox, { close, held });
}

/** `startTestSandbox` inside a test: closed when that test ends. */
export async function testSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox(options);
  onTestFinished(sandbox.close);
  return sandbox;
}

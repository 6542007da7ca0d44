import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock, startServer, type Reply, type SeenRequest } from '../../test/helpers/localServer.js';
import { createHttpClient } from './httpClient.js';
import { Sender, type Outcome, type SendJob } from './sender.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(
  handler: (request: SeenRequest, count: number) => Reply | Promise<Reply>,
  options: { retries?: number; timeoutMs?: number; concurrency?: number } = {},
) {
  const server = await startServer(handler);
  const client = createHttpClient(
    new URL(server.url),
    'test-key-123',
    options.concurrency ?? 4,
    options.timeoutMs ?? 2000,
  );
  closers.push(server.close, () => client.close());
  const clock = fakeClock();
  const outcomes: [string, Outcome][] = [];
  const sender = new Sender<string>({
    client,
    clock,
    random: () => 0.5,
    concurrency: options.concurrency ?? 4,
    retries: options.retries ?? 3,
    timeoutMs: options.timeoutMs ?? 2000,
    onOutcome: (job, outcome) => void outcomes.push([job.context, outcome]),
  });
  return { server, sender, clock, outcomes };
}

let n = 0;
function job(orderId: string, isCreation = false, body: object = { id: orderId }): SendJob<string> {
  return {
    endpoint: isCreation ? 'order' : 'status',
    method: isCreation ? 'POST' : 'PUT',
    path: '/v2/order',
    body: JSON.stringify(body),
    orderId,
    isCreation,
    location: { file: 'f', index: n, line: n + 1 },
    context: `${isCreation ? 'create' : 'update'}-${orderId}-${n++}`,
  };
}

describe('Sender', () => {
  it('sends with the Bearer key and reads the decision of an evaluated creation', async () => {
    const { server, sender, outcomes } = await setup(() => ({
      status: 201,
      body: { legiti_decision: 'reject', message: 'x' },
    }));
    await sender.submit(job('A', true));
    await sender.drain();
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v2/order' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key-123');
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(outcomes[0]![1]).toMatchObject({ kind: 'accepted', status: 201, decision: 'reject', attempts: 1 });
  });

  it('does not retry a 400, and keeps the service message', async () => {
    const { server, sender, outcomes, clock } = await setup(() => ({
      status: 400,
      body: { error_message: { status: ['Not a valid choice.'] } },
    }));
    await sender.submit(job('A'));
    await sender.drain();
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(outcomes[0]![1]).toMatchObject({
      kind: 'rejected',
      status: 400,
      message: 'status: Not a valid choice.',
    });
  });

  it('retries 503, 429, 408 and resets with exponential backoff and full jitter, then succeeds', async () => {
    const replies: Reply[] = [
      { status: 503 },
      'reset',
      { status: 408 },
      { status: 200, body: { message: 'ok' } },
    ];
    const { server, sender, outcomes, clock } = await setup((_, count) => replies[count - 1]!, {
      retries: 5,
    });
    // Each retry is told as it is decided, before its delay: the sleeps made by then.
    const told: number[] = [];
    sender.onRetry = () => told.push(clock.sleeps.length);
    await sender.submit(job('A'));
    await sender.drain();
    expect(told.slice(0, 3)).toEqual([0, 1, 2]);
    expect(told).toHaveLength(sender.retried);
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
    // random() = 0.5 of ceilings 200, 400, 800 ms
    expect(clock.sleeps.slice(0, 3)).toEqual([100, 200, 400]);
    expect(outcomes[0]![1]).toMatchObject({ kind: 'accepted' });
    expect(sender.retried).toBeGreaterThanOrEqual(3);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    const replies: Reply[] = [
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, headers: { 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' } },
      { status: 200 },
    ];
    const { sender, clock } = await setup((_, count) => replies[count - 1]!);
    await sender.submit(job('A'));
    await sender.drain();
    expect(clock.sleeps[0]).toBe(3000);
    expect(clock.sleeps[1]).toBe(7000); // 10 s after the fake start, minus the 3 s already slept
  });

  it('gives up after --retries and says why', async () => {
    const { server, sender, outcomes, clock } = await setup(() => ({ status: 502 }), { retries: 2 });
    await sender.submit(job('A'));
    await sender.drain();
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(outcomes[0]![1]).toMatchObject({ kind: 'failed', reason: 'HTTP 502 (after 3 attempts)' });
  });

  it('abandons a request at the timeout', async () => {
    const { sender, outcomes } = await setup(() => ({ status: 200, delayMs: 1500 }), {
      retries: 0,
      timeoutMs: 150,
    });
    const started = Date.now();
    await sender.submit(job('A'));
    await sender.drain();
    expect(Date.now() - started).toBeLessThan(1200);
    expect(outcomes[0]![1]).toMatchObject({
      kind: 'failed',
      reason: 'no answer within 150 ms (after 1 attempts)',
    });
  });

  it('stops everything when the key is refused', async () => {
    const { server, sender, outcomes } = await setup(
      () => ({ status: 401, body: { message: 'invalid key' } }),
      { concurrency: 1 },
    );
    for (const id of ['A', 'B', 'C']) await sender.submit(job(id));
    await sender.drain();
    expect(server.requests).toHaveLength(1);
    expect(outcomes.map(([, o]) => o.kind)).toEqual(['refused', 'not-sent', 'not-sent']);
    expect(sender.refused).toBe(true);
  });

  it('stops the run once several records in a row fail after all their retries', async () => {
    const { server, sender, outcomes } = await setup(() => ({ status: 502 }), { retries: 0, concurrency: 1 });
    for (const id of ['A', 'B', 'C', 'D', 'E']) await sender.submit(job(id));
    await sender.drain();
    expect(outcomes.map(([, o]) => o.kind)).toEqual(['failed', 'failed', 'failed', 'not-sent', 'not-sent']);
    expect(server.requests).toHaveLength(3);
    expect(sender.halted?.summary).toContain('3 records in a row could not be delivered');
  });

  it('counts failures in a row only: an accepted record between them resets the count', async () => {
    const { sender, outcomes } = await setup(
      (_, count) => (count % 3 === 0 ? { status: 200 } : { status: 502 }),
      { retries: 0, concurrency: 1 },
    );
    for (const id of ['A', 'B', 'C', 'D', 'E', 'F']) await sender.submit(job(id));
    await sender.drain();
    expect(outcomes.map(([, o]) => o.kind)).toEqual([
      'failed',
      'failed',
      'accepted',
      'failed',
      'failed',
      'accepted',
    ]);
    expect(sender.halted).toBeUndefined();
  });

  it('waits a Retry-After up to the ceiling, and stops rather than wait longer', async () => {
    const { server, sender, clock, outcomes } = await setup(
      (_, count) => ({ status: 503, headers: { 'retry-after': count === 1 ? '30' : '31' } }),
      { concurrency: 1 },
    );
    await sender.submit(job('A'));
    await sender.submit(job('B'));
    await sender.drain();
    expect(clock.sleeps).toEqual([30_000]);
    expect(server.requests).toHaveLength(2);
    expect(outcomes.map(([, o]) => o.kind)).toEqual(['failed', 'not-sent']);
    expect(sender.halted?.summary).toContain('asks to wait 31 s');
  });

  it(
    'stops sending when an answer cannot be recorded (the state disk is full), and drain() throws ' +
      'that failure',
    async () => {
      const server = await startServer(() => ({ status: 200 }));
      const client = createHttpClient(new URL(server.url), 'test-key-123', 1, 2000);
      closers.push(server.close, () => client.close());
      const full = new Error('the disk is full');
      const kinds: string[] = [];
      const sender = new Sender<string>({
        client,
        clock: fakeClock(),
        random: () => 0.5,
        concurrency: 1,
        retries: 0,
        timeoutMs: 2000,
        onOutcome: (_, outcome) => {
          kinds.push(outcome.kind);
          return outcome.kind === 'accepted' ? Promise.reject(full) : undefined;
        },
      });
      for (const id of ['A', 'B', 'C']) await sender.submit(job(id));
      await expect(sender.drain()).rejects.toBe(full);
      expect(server.requests).toHaveLength(1);
      expect(kinds).toEqual(['accepted', 'not-sent', 'not-sent']);
      expect(sender.stopped).toBe(true);
    },
  );

  it("sends an order's calls after its creation is accepted and in input order, other orders in parallel", async () => {
    const { server, sender } = await setup(
      (request) => {
        const body = JSON.parse(request.body) as { id: string; step?: number };
        return {
          status: 200,
          delayMs: body.id === 'A' && body.step === undefined ? 300 : 20 + ((body.step ?? 0) % 2) * 30,
        };
      },
      { concurrency: 8 },
    );
    await sender.submit(job('A', true));
    for (let step = 1; step <= 4; step++) await sender.submit(job('A', false, { id: 'A', step }));
    await sender.submit(job('B', true, { id: 'B' }));
    await sender.drain();
    const order = server.requests.map((r) => JSON.parse(r.body) as { id: string; step?: number });
    const a = order.filter((r) => r.id === 'A').map((r) => r.step ?? 0);
    expect(a).toEqual([0, 1, 2, 3, 4]);
    expect(order[1]).toEqual({ id: 'B' }); // B did not wait for A
    const creationDone = server.requests[0]!.at + 300;
    for (const request of server.requests.filter((r) => r.body.includes('step')))
      expect(request.at).toBeGreaterThanOrEqual(creationDone - 5);
  });

  it("does not send an order's updates when its creation was rejected", async () => {
    const { server, sender, outcomes } = await setup((request) =>
      request.method === 'POST' ? { status: 400, body: { error_message: 'bad' } } : { status: 200 },
    );
    await sender.submit(job('A', true));
    await sender.submit(job('A'));
    await sender.drain();
    expect(server.requests).toHaveLength(1);
    expect(outcomes.map(([, o]) => o.kind)).toEqual(['rejected', 'blocked']);
  });

  it(
    "holds an order's later calls for the run once one of its updates fails after its retries, so a " +
      're-run keeps their order',
    async () => {
      const { server, sender, outcomes } = await setup(
        (request) => (request.body.includes('"step":1') ? { status: 503 } : { status: 200 }),
        { retries: 1 },
      );
      await sender.submit(job('A', true));
      await sender.submit(job('A', false, { id: 'A', step: 1 }));
      await sender.submit(job('B', true));
      await sender.drain();
      // Submitted after step 1's failure was settled: still held, however late it comes.
      await sender.submit(job('A', false, { id: 'A', step: 2 }));
      await sender.submit(job('B', false, { id: 'B', step: 2 }));
      await sender.drain();
      expect(
        server.requests.filter((r) => r.body.includes('"step":2')).map((r) => JSON.parse(r.body).id),
      ).toEqual(['B']);
      const held = outcomes.filter(([, outcome]) => outcome.kind === 'blocked');
      expect(held).toHaveLength(1);
      expect(held[0]![1]).toMatchObject({ kind: 'blocked', by: 'earlier-call' });
      expect(held[0]![1]).toHaveProperty(
        'reason',
        expect.stringMatching(/update at f:\d+ failed \(HTTP 503/),
      );
    },
  );

  it('lets a caller that re-sends failures itself (the relay) go on with the order', async () => {
    const server = await startServer((request) =>
      request.body.includes('"step":1') ? { status: 503 } : { status: 200 },
    );
    const client = createHttpClient(new URL(server.url), 'k', 2, 2000);
    closers.push(server.close, () => client.close());
    const kinds: string[] = [];
    const sender = new Sender<string>({
      client,
      clock: fakeClock(),
      random: () => 0.5,
      concurrency: 2,
      retries: 0,
      timeoutMs: 2000,
      requeuesFailures: true,
      onOutcome: (_job, outcome) => void kinds.push(outcome.kind),
    });
    await sender.submit(job('A', false, { id: 'A', step: 1 }));
    await sender.drain();
    await sender.submit(job('A', false, { id: 'A', step: 2 }));
    await sender.drain();
    expect(kinds).toEqual(['failed', 'accepted']);
  });

  it('keeps at most --concurrency requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const { sender } = await setup(
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        return { status: 200 };
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 12; i++) await sender.submit(job(`O${i}`));
    await sender.drain();
    expect(most).toBe(3);
  });
});

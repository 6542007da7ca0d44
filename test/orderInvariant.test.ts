/**
 * The invariant of issue 27, as a property: after any sequence of runs over the same input that
 * ends with exit 0 (some runs over a version with broken creations, then the fixed one, against a
 * service that fails at random), the service has accepted every valid record, in flow order.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const STATUSES = ['approved', 'pending', 'declined', 'cancelled'] as const;

const history = fc.array(
  fc.record({
    statuses: fc.array(fc.constantFrom(...STATUSES), { maxLength: 3 }),
    fraud: fc.boolean(),
    broken: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

function write(
  dir: string,
  orders: { statuses: readonly string[]; fraud: boolean; broken: boolean }[],
  fixed: boolean,
) {
  const id = (n: number) => `ORD-${n}`;
  writeFileSync(
    join(dir, 'order.ndjson'),
    nd(...orders.map((o, n) => orderRecord(id(n), !fixed && o.broken ? { creation_datetime: 'soon' } : {}))),
  );
  // Each status carries its position, so no two are the same record and their order shows at the service.
  writeFileSync(
    join(dir, 'status.ndjson'),
    nd(
      ...orders.flatMap((o, n) =>
        o.statuses.map((status, k) => ({ id: id(n), status, status_reason: `step ${k}` })),
      ),
    ),
  );
  writeFileSync(
    join(dir, 'fraud.ndjson'),
    nd(...orders.flatMap((o, n) => (o.fraud ? [{ order_id: id(n), fraud_signal_type: 'chargeback' }] : []))),
  );
}

describe('the order invariant', () => {
  it('runs that end with exit 0 leave every valid record at the service, in flow order', async () => {
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: 1, max: 2 }),
        fc.constantFrom(0, 0.2),
        fc.integer({ min: 1, max: 1000 }),
        async (orders, brokenRuns, fail, seed) => {
          const sandbox = await testSandbox({
            seed,
            faults: { fail, throttle: 0, slow: 0, reset: 0 },
          });
          try {
            const dir = tempDir('collect-invariant-');
            const state = freshStateDir();
            const send = async () =>
              (
                await runCli(
                  ['backfill', dir, '--base-url', sandbox.url, '--state', state, '--retries', '2'],
                  { env: { COLLECT_API_KEY: 'invariant-key' } },
                )
              ).code;
            write(dir, orders, false);
            for (let run = 0; run < brokenRuns; run++) await send();
            write(dir, orders, true);
            let code = -1;
            for (let run = 0; run < 8 && code !== 0; run++) code = await send();
            expect(code).toBe(0);
            for (const [n, o] of orders.entries()) {
              const answer = await fetch(`${sandbox.url}/_sandbox/orders/ORD-${n}`);
              expect(answer.status).toBe(200);
              const held = (await answer.json()) as {
                updates: Record<string, { status?: string; status_reason?: string }[]>;
              };
              expect((held.updates.status ?? []).map((s) => `${s.status} ${s.status_reason}`)).toEqual(
                o.statuses.map((status, k) => `${status} step ${k}`),
              );
              expect(held.updates.fraud ?? []).toHaveLength(o.fraud ? 1 : 0);
            }
          } finally {
            await sandbox.close();
          }
        },
      ),
      {
        numRuns: 8,
        // Found by this property: an update that failed after its retries let the order's next one go first.
        examples: [
          [
            [
              { statuses: ['approved', 'approved'], fraud: true, broken: false },
              { statuses: ['approved', 'approved'], fraud: true, broken: true },
              { statuses: [], fraud: true, broken: false },
              { statuses: ['approved', 'approved', 'approved'], fraud: false, broken: true },
            ],
            1,
            0.2,
            536,
          ],
        ],
      },
    );
  }, 120_000);
});

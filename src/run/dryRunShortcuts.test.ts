import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flowRules } from '../flow/rules/index.js';
import { creationsJudgedAsRead, eventsOf, type FlowRule } from '../flow/rules/rule.js';
import { resources } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { checkAndSend, type RunRequest } from './checkAndSend.js';
import { tempDir } from '../../test/helpers/tempDir.js';

/** A rule that judges creations by the creation itself: the first creation of a new order too. */
const orderWithoutStatus: FlowRule = {
  code: 'order-without-status',
  severity: 'error',
  spec: 'test',
  appliesTo: ['order'],
  needsCreations: false,
  catches: 'an order created without a status',
  fix: 'give it one',
  check: (timeline) => ({
    hits: eventsOf(timeline, 'order')
      .filter((event) => !event.facts.status)
      .map((event) => ({
        event,
        code: 'order-without-status',
        path: 'status',
        message: 'created without a status',
        hint: 'give it one',
      })),
  }),
};

/** A rule that judges a creation by the creations AFTER it: an order created twice has both faulted. */
const orderCreatedTwice: FlowRule = {
  code: 'order-created-twice',
  severity: 'error',
  spec: 'test',
  appliesTo: ['order'],
  needsCreations: false,
  catches: 'an order created more than once: which creation is right?',
  fix: 'keep one',
  check: (timeline) => {
    const creations = eventsOf(timeline, 'order');
    return {
      hits:
        creations.length < 2
          ? []
          : creations.map((event) => ({
              event,
              code: 'order-created-twice',
              path: 'id',
              message: 'created twice',
              hint: 'keep one',
            })),
    };
  },
};

const order = (id: string, extra: object = {}) => ({
  id,
  creation_datetime: '2024-03-01T10:00:00Z',
  total_paid_value: 10,
  user: { id: 'U1' },
  ...extra,
});
const input = (resource: Resource, records: unknown[]) => ({
  resource,
  spec: { name: `${resource.name}.json`, format: 'json' as const, gzip: false, records },
});

function deps() {
  const stdin = new PassThrough();
  stdin.end();
  return {
    stdin,
    now: () => new Date('2025-01-01T00:00:00Z'),
    scratchDir: tmpdir(),
    redact: (text: string) => text,
    progress: () => ({ tick: () => {}, stop: () => {} }),
    onInterrupt: () => () => {},
  };
}

const dryRun = (inputs: RunRequest['inputs'], stateDir: string, rules?: readonly FlowRule[]) =>
  checkAndSend(
    {
      inputs,
      stateDir,
      remember: true,
      strict: false,
      timeoutMs: 2000,
      concurrency: 2,
      retries: 0,
      resend: false,
      maxRecordBytes: 1 << 20,
      ...(rules ? { rules } : {}),
    },
    deps(),
  );

/** The orders whose later status update the state's next run finds unknown: those the state did not keep. */
async function notKept(stateDir: string, orderIds: string[]): Promise<string[]> {
  const { issues } = await dryRun(
    [
      input(
        resources.status,
        orderIds.map((id) => ({ id, status: 'cancelled' })),
      ),
    ],
    stateDir,
  );
  return [...issues]
    .filter((issue) => issue.code === 'unknown-order')
    .map((issue) => orderIds[issue.index!]!);
}

/** The order ids (by position in `ids`) each code faulted. */
const faulted = (
  issues: Iterable<{ code: string; index: number | null; endpoint: string }>,
  code: string,
  ids: string[],
) =>
  [...issues]
    .filter((issue) => issue.code === code && issue.endpoint === 'order')
    .map((issue) => ids[issue.index!]!);

describe('the dry-run shortcuts follow what the rules declare', () => {
  it('are on for the rules of docs/flow-rules.md, off once a rule may fault any creation', () => {
    const creations = [resources.order];
    expect(creationsJudgedAsRead(flowRules, creations)).toBe(true);
    expect(creationsJudgedAsRead([...flowRules, orderWithoutStatus], creations)).toBe(false);
    expect(creationsJudgedAsRead([...flowRules, orderCreatedTwice], creations)).toBe(false);
    // A rule that judges creations cannot switch off a run without them.
    expect(creationsJudgedAsRead([...flowRules, orderWithoutStatus], [resources.status])).toBe(true);
  });

  it(
    'keep out of the state an order its creation rule faults, in a run with updates (creations ' +
      'remembered as read)',
    async () => {
      const state = tempDir('collect-shortcuts-');
      const ids = ['A', 'B'];
      const first = await dryRun(
        [
          input(resources.order, [order('A', { status: 'approved' }), order('B')]),
          input(resources.status, [{ id: 'A', status: 'cancelled' }]),
        ],
        state,
        [...flowRules, orderWithoutStatus],
      );
      expect(faulted(first.issues, 'order-without-status', ids)).toEqual(['B']);
      expect(first.report.summary).toMatchObject({ records: 3, valid: 2, invalid: 1 });
      expect(await notKept(state, ids)).toEqual(['B']);
    },
  );

  it('keep out of the state an order a rule faults by its later creations, in a run of creations alone', async () => {
    const state = tempDir('collect-shortcuts-');
    const ids = ['A', 'B', 'A'];
    const first = await dryRun(
      [
        input(
          resources.order,
          ids.map((id) => order(id, { status: 'approved' })),
        ),
      ],
      state,
      [...flowRules, orderCreatedTwice],
    );
    expect(faulted(first.issues, 'order-created-twice', ids)).toEqual(['A', 'A']);
    expect(first.report.summary).toMatchObject({ records: 3, valid: 1, invalid: 2 });
    expect(await notKept(state, ['A', 'B'])).toEqual(['A']);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { evaluateTimeline, rulesSkippedForKnowledge } from '../evaluate.js';
import { resources } from '../../resources/registry.js';
import type { RuleFacts } from '../facts.js';
import type { FlowEvent, OrderTimeline, PriorOrder } from '../timeline.js';
import { flowRules } from './index.js';
import type { FlowRule } from './rule.js';

let seq = 0;
beforeEach(() => (seq = 0));

function event(
  facts: RuleFacts,
  options: { hash?: string; replay?: boolean; owners?: string[] } = {},
): FlowEvent {
  const n = seq++;
  return {
    facts,
    resource: resources[facts.kind],
    location: { file: `${facts.kind}.csv`, index: n, line: n + 2 },
    seq: n,
    hash: options.hash ?? `hash-${n}`,
    schemaValid: true,
    replay: options.replay ?? false,
    ...(options.owners ? { owners: options.owners } : {}),
  };
}

const order = (orderId: string, extra: Partial<Extract<RuleFacts, { kind: 'order' }>> = {}, hash?: string) =>
  event(
    { kind: 'order', orderId, key: orderId, evaluate: false, payments: [], claims: [], ...extra },
    hash ? { hash } : {},
  );
const status = (orderId: string, value: string, replay = false) =>
  event({ kind: 'status', orderId, key: orderId, status: value }, { replay });
const fraud = (orderId: string, signalType: string, replay = false) =>
  event({ kind: 'fraud', orderId, key: orderId, signalType }, { replay });
const payment = (orderId: string, paymentId: string, acquirerId: string) =>
  event({ kind: 'payment', orderId, key: paymentId, paymentId, acquirerId });
const delivery = (orderId: string, deliveryId: string, owners: string[]) =>
  event({ kind: 'delivery', orderId, key: deliveryId, deliveryId }, { owners });
const prior = (extra: Partial<PriorOrder> = {}): PriorOrder => ({
  created: true,
  hash: 'prior',
  evaluate: false,
  decision: null,
  lastStatus: null,
  payments: {},
  deliveryIds: [],
  fraudTypes: [],
  ...extra,
});

/** The verdict as `severity code #position` lines, the position in `events`. */
function verdict(events: FlowEvent[], priorOrder: PriorOrder | null = null, creations = true) {
  const timeline: OrderTimeline = { orderId: 'A', prior: priorOrder, events };
  const result = evaluateTimeline(timeline, { creations }, flowRules);
  return {
    hits: [...result.issues].flatMap(([e, issues]) =>
      issues.map((i) => `${i.severity} ${i.code} #${events.indexOf(e)}`),
    ),
    skips: result.skips.map((s) => s.code),
  };
}
const hits = (events: FlowEvent[], priorOrder: PriorOrder | null = null) => verdict(events, priorOrder).hits;

describe('unknown-order', () => {
  it('faults every update of an order created nowhere', () => {
    expect(
      hits([
        status('A', 'approved'),
        fraud('A', 'chargeback'),
        payment('A', 'P', 'X'),
        delivery('A', 'D', []),
      ]),
    ).toEqual([
      'error unknown-order #0',
      'error unknown-order #1',
      'error unknown-order #2',
      'error unknown-order #3',
    ]);
  });
  it('accepts updates of an order created in the run (even after them) or an earlier run', () => {
    expect(hits([status('A', 'approved'), order('A')])).toEqual([]);
    expect(hits([status('A', 'approved')], prior())).toEqual([]);
  });
  it('does not count an order known only by an earlier fraud mark as created', () => {
    expect(hits([status('A', 'approved')], prior({ created: false, fraudTypes: ['chargeback'] }))).toEqual([
      'error unknown-order #0',
    ]);
  });
  it('is skipped, with a note, when nothing tells which orders exist', () => {
    expect(verdict([status('A', 'approved')], null, false).hits).toEqual([]);
    expect(
      rulesSkippedForKnowledge(flowRules, { creations: false }, [resources.status]).map((s) => s.code),
    ).toEqual(['unknown-order', 'missing-fraud-mark']);
    expect(rulesSkippedForKnowledge(flowRules, { creations: true }, [resources.status])).toEqual([]);
  });
});

describe('order-invalid', () => {
  const broken = (orderId: string, hash?: string) => ({
    ...order(orderId, {}, hash),
    schemaValid: false,
    fault: 'invalid-datetime',
  });
  it(
    'faults every update of an order whose only creation in the run is invalid, naming the ' +
      "creation's place and error",
    () => {
      const events = [broken('A'), status('A', 'approved'), fraud('A', 'chargeback')];
      expect(hits(events)).toEqual(['error order-invalid #1', 'error order-invalid #2']);
      const issue = evaluateTimeline(
        { orderId: 'A', prior: null, events },
        { creations: true },
        flowRules,
      ).issues.get(events[1]!)![0]!;
      expect(issue.message).toContain('order.csv:2 is invalid (invalid-datetime)');
    },
  );
  it('counts a creation another rule faulted as invalid (a second creation with a different body)', () => {
    expect(hits([broken('A', 'x'), order('A', {}, 'y'), status('A', 'approved')])).toEqual([
      'error duplicate-order #1',
      'error order-invalid #2',
    ]);
  });
  it('lets the updates pass when one creation is valid, or an earlier run created the order', () => {
    expect(hits([broken('A', 'x'), order('A', {}, 'x'), status('A', 'approved')])).toEqual([
      'warning duplicate-order #1',
    ]);
    expect(hits([broken('A', 'prior'), status('A', 'approved')], prior())).toEqual([]);
  });
});

describe('duplicate-order', () => {
  it('is an error for a different body and a warning for an identical repeat', () => {
    expect(hits([order('A', {}, 'x'), order('A', {}, 'y'), order('A', {}, 'x')])).toEqual([
      'error duplicate-order #1',
      'warning duplicate-order #2',
    ]);
  });
  it('compares with the creation an earlier run recorded, and lets a re-run of it pass', () => {
    expect(hits([order('A', {}, 'prior')], prior())).toEqual([]);
    expect(hits([order('A', {}, 'other')], prior())).toEqual(['error duplicate-order #0']);
    expect(hits([order('A', {}, 'prior'), order('A', {}, 'prior')], prior())).toEqual([
      'warning duplicate-order #1',
    ]);
  });
});

describe('fraud-after-service-decline', () => {
  it("faults a fraud mark for an order the service's evaluation rejected", () => {
    expect(hits([fraud('A', 'chargeback')], prior({ evaluate: true, decision: 'reject' }))).toEqual([
      'error fraud-after-service-decline #0',
    ]);
  });
  it('accepts it when the service approved, or never evaluated, the order', () => {
    expect(hits([fraud('A', 'chargeback')], prior({ evaluate: true, decision: 'approve' }))).toEqual([]);
    expect(hits([order('A'), fraud('A', 'chargeback')])).toEqual([]);
  });
  it('says it could not check a mark for an evaluated order whose decision is unknown', () => {
    expect(verdict([order('A', { evaluate: true }), fraud('A', 'chargeback')]).skips).toEqual([
      'fraud-after-service-decline',
    ]);
  });
});

describe('duplicate-fraud-mark', () => {
  it('warns about the same signal type twice, in the run or after an earlier run', () => {
    expect(hits([order('A'), fraud('A', 'chargeback'), fraud('A', 'chargeback')])).toEqual([
      'warning duplicate-fraud-mark #2',
    ]);
    expect(hits([fraud('A', 'chargeback')], prior({ fraudTypes: ['chargeback'] }))).toEqual([
      'warning duplicate-fraud-mark #0',
    ]);
  });
  it('accepts another signal type, and the re-run of a mark the state holds', () => {
    expect(hits([order('A'), fraud('A', 'chargeback'), fraud('A', 'manual_analysis')])).toEqual([]);
    expect(hits([fraud('A', 'chargeback', true)], prior({ fraudTypes: ['chargeback'] }))).toEqual([]);
  });
});

describe('missing-fraud-mark', () => {
  it('warns about a declined order with no fraud mark that the service did not reject', () => {
    expect(hits([order('A'), status('A', 'declined')])).toEqual(['warning missing-fraud-mark #1']);
    expect(hits([status('A', 'declined')], prior({ evaluate: true, decision: 'approve' }))).toEqual([
      'warning missing-fraud-mark #0',
    ]);
  });
  it('accepts it with a fraud mark in the run or before, or when the service rejected the order', () => {
    expect(hits([order('A'), status('A', 'declined'), fraud('A', 'manual_analysis')])).toEqual([]);
    expect(hits([status('A', 'declined')], prior({ fraudTypes: ['acquirer'] }))).toEqual([]);
    expect(hits([status('A', 'declined')], prior({ evaluate: true, decision: 'reject' }))).toEqual([]);
  });
  it('says it could not check a declined order whose evaluation decision is unknown', () => {
    expect(verdict([order('A', { evaluate: true }), status('A', 'declined')])).toEqual({
      hits: [],
      skips: ['missing-fraud-mark'],
    });
  });
});

describe('payment rules', () => {
  const created = () => order('A', { payments: [{ id: 'P1', acquirerId: 'ACQ1' }, { id: 'P2' }] });
  it('unknown-payment: faults a payment id the order was not created with', () => {
    expect(hits([created(), payment('A', 'P9', 'X')])).toEqual(['error unknown-payment #1']);
    expect(hits([payment('A', 'P9', 'X')], prior({ payments: { P1: null } }))).toEqual([
      'error unknown-payment #0',
    ]);
    expect(hits([created(), payment('A', 'P2', 'X')])).toEqual([]);
  });
  it('payment-update-redundant: warns when creation already sent the same acquirer id', () => {
    expect(hits([created(), payment('A', 'P1', 'ACQ1')])).toEqual(['warning payment-update-redundant #1']);
    expect(hits([payment('A', 'P1', 'ACQ1')], prior({ payments: { P1: 'ACQ1' } }))).toEqual([
      'warning payment-update-redundant #0',
    ]);
  });
  it('payment-acquirer-conflict: faults a different acquirer id than at creation', () => {
    expect(hits([created(), payment('A', 'P1', 'ACQ2')])).toEqual(['error payment-acquirer-conflict #1']);
    expect(hits([payment('A', 'P1', 'ACQ2')], prior({ payments: { P1: 'ACQ1' } }))).toEqual([
      'error payment-acquirer-conflict #0',
    ]);
  });
});

describe('status-unchanged', () => {
  it("warns about a status that repeats the order's current one", () => {
    expect(
      hits([order('A'), status('A', 'pending'), status('A', 'pending'), status('A', 'approved')]),
    ).toEqual(['warning status-unchanged #2']);
    expect(hits([order('A', { status: 'approved' }), status('A', 'approved')])).toEqual([
      'warning status-unchanged #1',
    ]);
    expect(hits([status('A', 'approved')], prior({ lastStatus: 'approved' }))).toEqual([
      'warning status-unchanged #0',
    ]);
  });
  it('accepts changes, and the re-run of statuses the state holds', () => {
    expect(hits([status('A', 'approved')], prior({ lastStatus: 'pending' }))).toEqual([]);
    expect(
      hits([status('A', 'pending', true), status('A', 'approved', true)], prior({ lastStatus: 'approved' })),
    ).toEqual([]);
  });
});

describe('delivery-order-mismatch', () => {
  it('faults a delivery id that belongs to another order', () => {
    expect(hits([order('A'), delivery('A', 'D9', ['B'])])).toEqual(['error delivery-order-mismatch #1']);
  });
  it("accepts the order's own delivery and a delivery id no creation holds", () => {
    expect(hits([order('A'), delivery('A', 'D1', ['A']), delivery('A', 'D2', [])])).toEqual([]);
  });
});

describe('what a rule declares it judges', () => {
  it('is enforced: a rule that faults a record outside its appliesTo is a bug, not a verdict', () => {
    const stray: FlowRule = {
      code: 'stray',
      severity: 'error',
      spec: 'test',
      catches: 'x',
      fix: 'x',
      appliesTo: ['status'],
      needsCreations: false,
      check: (timeline) => ({
        hits: timeline.events.map((e) => ({ event: e, code: 'stray', path: 'id', message: 'x', hint: 'x' })),
      }),
    };
    const events = [order('A'), status('A', 'approved')];
    expect(() =>
      evaluateTimeline({ orderId: 'A', prior: null, events }, { creations: true }, [stray]),
    ).toThrow(/stray faulted a order record/);
    expect(
      evaluateTimeline({ orderId: 'A', prior: null, events: [events[1]!] }, { creations: true }, [stray])
        .issues.size,
    ).toBe(1);
  });
});

describe('the rule registry', () => {
  it('lists every code of docs/flow-rules.md once, with its severity', () => {
    expect(flowRules.map((rule) => `${rule.code}:${rule.severity}`)).toEqual([
      'unknown-order:error',
      'order-invalid:error',
      'duplicate-order:error',
      'fraud-after-service-decline:error',
      'fraud-comment-required:error',
      'fraud-comment-recommended:warning',
      'fraud-field-named-status:error',
      'duplicate-fraud-mark:warning',
      'missing-fraud-mark:warning',
      'unknown-payment:error',
      'payment-update-redundant:warning',
      'payment-acquirer-conflict:error',
      'status-unchanged:warning',
      'delivery-order-mismatch:error',
    ]);
  });
});

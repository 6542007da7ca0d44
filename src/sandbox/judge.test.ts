import { describe, expect, it } from 'vitest';
import { ReportBuilder } from '../report/report.js';
import { registry } from '../resources/registry.js';
import { SessionJudge } from './judge.js';
import type { ReceivedRequest } from './protocolRules.js';

const at = new Date('2026-01-02T03:04:05.000Z');
const json = 'application/json';

function session(strict = false) {
  const builder = new ReportBuilder({ strict });
  const judge = new SessionJudge(builder, registry);
  const send = (
    method: string,
    path: string,
    body: unknown,
    headers: { auth?: string | null; type?: string | null } = {},
  ) => {
    const request: ReceivedRequest = {
      method,
      path,
      at,
      authorization: headers.auth === null ? undefined : (headers.auth ?? 'Bearer k'),
      contentType: headers.type === null ? undefined : (headers.type ?? json),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    };
    return judge.receive(request);
  };
  const codes = (judgement: { issues: { code: string }[] }) => judgement.issues.map((issue) => issue.code);
  return { builder, judge, send, codes };
}

const order = (id: string, extra: object = {}) => ({
  id,
  total_paid_value: 100,
  creation_datetime: '2026-01-01T00:00:00Z',
  user: { id: 'U' },
  payments: [{ id: `P-${id}` }],
  ...extra,
});

describe('SessionJudge: protocol rules', () => {
  it('names each request by sequence number, method, path and time, with the sequence number as its line', () => {
    const { send } = session();
    send('POST', '/v2/order', order('A'));
    const second = send('PUT', '/v2/order', { id: 'A', status: 'approved' });
    expect(second.location).toEqual({
      file: 'request #2 PUT /v2/order at 2026-01-02T03:04:05.000Z',
      index: 0,
      line: 2,
    });
  });
  it('reports an unknown method or path, with the endpoints of that path', () => {
    const { send, builder } = session();
    const judged = send('GET', '/v2/order', '');
    expect(judged.issues).toMatchObject([
      {
        code: 'unknown-endpoint',
        severity: 'error',
        hint: 'this path takes POST /v2/order or PUT /v2/order',
      },
    ]);
    expect(builder.build().issues[0]).toMatchObject({
      endpoint: 'unknown',
      file: expect.stringContaining('request #1 GET /v2/order'),
      line: 1,
    });
  });
  it('requires Authorization: Bearer <key> on every request', () => {
    const { send, codes } = session();
    expect(codes(send('POST', '/v2/order', order('A'), { auth: null }))).toEqual(['missing-authorization']);
    expect(codes(send('POST', '/v2/order', order('B'), { auth: 'Basic abc' }))).toEqual([
      'missing-authorization',
    ]);
    expect(codes(send('POST', '/v2/order', order('C'), { auth: 'Bearer ' }))).toEqual([
      'missing-authorization',
    ]);
  });
  it('requires Content-Type: application/json on POST /v2/order (an error) and warns on the other endpoints', () => {
    const { send } = session();
    expect(send('POST', '/v2/order', order('A'), { type: null }).issues).toMatchObject([
      { code: 'content-type-not-json', severity: 'error', path: 'headers.content-type' },
    ]);
    expect(send('POST', '/v2/order', order('B'), { type: 'application/json; charset=utf-8' }).issues).toEqual(
      [],
    );
    // Order A's creation was refused for its header: its status cannot reach the service either (order-invalid).
    expect(
      send('PUT', '/v2/order', { id: 'A', status: 'approved' }, { type: 'text/plain' }).issues,
    ).toMatchObject([
      { code: 'content-type-not-json', severity: 'warning', value: 'text/plain' },
      { code: 'order-invalid', severity: 'error' },
    ]);
    expect(
      send('PUT', '/v2/order', { id: 'B', status: 'approved' }, { type: 'text/plain' }).issues,
    ).toMatchObject([{ code: 'content-type-not-json', severity: 'warning', value: 'text/plain' }]);
  });
  it('reports a body that is not JSON, and judges no more of it', () => {
    const { send, codes } = session();
    expect(codes(send('PUT', '/v2/order', '{"id":'))).toEqual(['body-not-json']);
    expect(codes(send('PUT', '/v2/order', ''))).toEqual(['body-not-json']);
  });
});

describe('SessionJudge: schemas and flow rules in arrival order', () => {
  it('applies the schemas of a file run', () => {
    const { send } = session();
    send('POST', '/v2/order', order('A'));
    expect(
      send('PUT', '/v2/order/delivery', { id: 'D', order_id: 'A', delivery_datetime: '2026-01-01T10:00:00' })
        .issues,
    ).toMatchObject([{ code: 'invalid-datetime', path: 'delivery_datetime' }]);
  });
  it('reports a status update that arrives before its order, even once the order is created', () => {
    const { send, judge, codes } = session();
    const early = send('PUT', '/v2/order', { id: 'A', status: 'approved' });
    expect(codes(early)).toEqual(['unknown-order']);
    expect(codes(send('POST', '/v2/order', order('A')))).toEqual([]);
    expect(codes(early)).toEqual(['unknown-order']);
    judge.answered(early, 404, { error_message: 'order A was never created' });
    expect(codes(send('PUT', '/v2/order', { id: 'A', status: 'approved' }))).toEqual([]);
  });
  it(
    'judges a declined order without a fraud mark when the session ends, since the mark may follow ' +
      'the decline',
    () => {
      const { send, judge, builder } = session();
      send('POST', '/v2/order', order('A'));
      send('POST', '/v2/order', order('B'));
      send('PUT', '/v2/order', { id: 'A', status: 'declined' });
      send('PUT', '/v2/order', { id: 'B', status: 'declined' });
      send('POST', '/v2/order/mark_fraudulent', { order_id: 'B', fraud_signal_type: 'manual_analysis' });
      expect(judge.report()).toMatchObject({
        issues: [],
        notes: [{ code: 'missing-fraud-mark', message: expect.stringContaining('when the sandbox stops') }],
      });
      judge.finish();
      judge.finish();
      expect(judge.report()).toMatchObject({
        summary: { records: 5, valid: 5, warnings: 1 },
        issues: [{ code: 'missing-fraud-mark', line: 3 }],
        notes: [],
      });
      expect(builder.build().issues).toHaveLength(1);
    },
  );
  it('counts a request once as invalid when the end of the session adds to its findings', () => {
    const { send, judge } = session(true);
    send('PUT', '/v2/order', { id: 'A', status: 'declined' });
    send('POST', '/v2/order', order('A'));
    judge.finish();
    expect(judge.report().summary).toMatchObject({ records: 2, invalid: 1, valid: 1 });
  });
  it('reports the same status twice on the second call only', () => {
    const { send, codes } = session();
    send('POST', '/v2/order', order('A'));
    expect(codes(send('PUT', '/v2/order', { id: 'A', status: 'approved' }))).toEqual([]);
    expect(send('PUT', '/v2/order', { id: 'A', status: 'approved' }).issues).toMatchObject([
      { code: 'status-unchanged', severity: 'warning' },
    ]);
    expect(codes(send('PUT', '/v2/order', { id: 'A', status: 'cancelled' }))).toEqual([]);
  });
  it("reports a fraud mark for an order the service's evaluation rejected, from the decision in its answer", () => {
    const { send, judge, codes } = session();
    const creation = send('POST', '/v2/order', order('A', { evaluate: true }));
    judge.answered(creation, 201, { legiti_decision: 'reject', message: 'too expensive' });
    expect(
      codes(send('POST', '/v2/order/mark_fraudulent', { order_id: 'A', fraud_signal_type: 'chargeback' })),
    ).toEqual(['fraud-after-service-decline']);
    const approved = send('POST', '/v2/order', order('B', { evaluate: true }));
    judge.answered(approved, 201, { legiti_decision: 'approve' });
    expect(
      codes(send('POST', '/v2/order/mark_fraudulent', { order_id: 'B', fraud_signal_type: 'chargeback' })),
    ).toEqual([]);
  });
  it('notes a fraud mark it cannot judge because the evaluation has not been answered yet', () => {
    const { send, builder, codes } = session();
    send('POST', '/v2/order', order('A', { evaluate: true }));
    expect(
      codes(send('POST', '/v2/order/mark_fraudulent', { order_id: 'A', fraud_signal_type: 'chargeback' })),
    ).toEqual([]);
    expect(builder.build().notes).toMatchObject([{ code: 'fraud-after-service-decline', count: 1 }]);
  });
  it('leaves a request the service did not take out of the timeline, so its retry is no repeat', () => {
    const { send, judge, codes, builder } = session();
    send('POST', '/v2/order', order('A'));
    const first = send('PUT', '/v2/order', { id: 'A', status: 'approved' });
    judge.answered(first, 503, { error_message: 'down' });
    expect(codes(send('PUT', '/v2/order', { id: 'A', status: 'approved' }))).toEqual([]);
    expect(builder.build().notes).toMatchObject([{ code: 'not-taken', count: 1 }]);
  });
  it('leaves a request the service refused out of the timeline: the corrected resend is judged alone', () => {
    const { send, judge, codes } = session();
    send('POST', '/v2/order', order('A'));
    const first = send('POST', '/v2/order/mark_fraudulent', {
      order_id: 'A',
      fraud_signal_type: 'third_party_antifraud',
    });
    expect(codes(first)).toEqual(['fraud-comment-required']);
    judge.answered(first, 400, { error_message: { fraud_comment: ['required'] } });
    expect(
      codes(
        send('POST', '/v2/order/mark_fraudulent', {
          order_id: 'A',
          fraud_signal_type: 'third_party_antifraud',
          fraud_comment: 'X',
        }),
      ),
    ).toEqual([]);
  });
  it('reports a refusal of the service that no rule foresaw', () => {
    const { send, judge, builder } = session();
    const judged = send('POST', '/v2/order', order('A'));
    judge.answered(judged, 401, { error_message: 'invalid API key' });
    expect(builder.build()).toMatchObject({
      summary: { records: 1, invalid: 1, errors: 1 },
      issues: [{ code: 'service-refused', message: 'the service answered 401: invalid API key', line: 1 }],
    });
  });
  it('counts warnings as errors under --strict', () => {
    const { send, builder } = session(true);
    send('POST', '/v2/order', order('A'));
    send('PUT', '/v2/order', { id: 'A', status: 'approved' });
    send('PUT', '/v2/order', { id: 'A', status: 'approved' });
    expect(builder.build().summary).toMatchObject({ records: 3, invalid: 1, errors: 1, warnings: 0 });
  });
});

describe('SessionJudge within --keep-mb', () => {
  function keeping(bytes: number) {
    const builder = new ReportBuilder({ strict: false });
    const judge = new SessionJudge(builder, registry, undefined, bytes);
    const call = (method: string, path: string, body: unknown, status: number, answer: unknown = {}) => {
      const judged = judge.receive({
        method,
        path,
        at,
        authorization: 'Bearer k',
        contentType: json,
        body: JSON.stringify(body),
      });
      judge.answered(judged, status, answer);
      return judged.issues.map((issue) => issue.code);
    };
    return { judge, call };
  }

  it('folds the least recently used orders into summaries that the flow rules still judge later calls against', () => {
    const { judge, call } = keeping(60_000);
    call('POST', '/v2/order', order('OLD', { evaluate: true, payments: [{ id: 'P-OLD' }] }), 201, {
      legiti_decision: 'reject',
    });
    call('PUT', '/v2/order', { id: 'OLD', status: 'declined' }, 200);
    for (let i = 0; i < 100; i++) call('POST', '/v2/order', order(`N${i}`), 201);
    const notes = () => judge.report().notes;
    expect(notes()).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'orders-folded' })]));
    // OLD is a summary now: no false unknown-order, and its last status, decision and payments still count.
    expect(call('PUT', '/v2/order', { id: 'OLD', status: 'declined' }, 200)).toEqual(['status-unchanged']);
    expect(
      call('POST', '/v2/order/mark_fraudulent', { order_id: 'OLD', fraud_signal_type: 'chargeback' }, 201),
    ).toEqual(['fraud-after-service-decline']);
    expect(
      call('PUT', '/v2/order/payment', { id: 'P-NOPE', order_id: 'OLD', acquirer_id: 'A' }, 200),
    ).toEqual(['unknown-payment']);
    expect(call('POST', '/v2/order', order('OLD'), 201)).toContain('duplicate-order');
    // An order still in budget keeps its whole timeline.
    call('PUT', '/v2/order', { id: 'N99', status: 'approved' }, 200);
    expect(call('PUT', '/v2/order', { id: 'N99', status: 'approved' }, 200)).toEqual(['status-unchanged']);
    expect(call('PUT', '/v2/order', { id: 'NEVER', status: 'approved' }, 404)).toEqual(['unknown-order']);
  });

  it('forgets whole orders only when summaries alone fill the budget, and says so', () => {
    const { judge, call } = keeping(3_000);
    for (let i = 0; i < 200; i++) call('POST', '/v2/order', order(`N${i}`), 201);
    expect(judge.report().notes).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'orders-forgotten' })]),
    );
    expect(call('PUT', '/v2/order', { id: 'N199', status: 'approved' }, 200)).toEqual([]);
    // A call for a forgotten order is not judged as for an order never created; one never created still is.
    expect(call('PUT', '/v2/order', { id: 'N0', status: 'approved' }, 200)).toEqual([]);
    expect(judge.report().notes).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'order-forgotten', count: 1 })]),
    );
    expect(call('PUT', '/v2/order', { id: 'NEVER', status: 'approved' }, 404)).toEqual(['unknown-order']);
  });
});

// A scripted application session against `collect sandbox --report`: a few correct calls and
// every mistake of issue 15, in this order. Usage: node bench/sandbox-session.js [URL]
// Prints each call and the sandbox's answer; the judging is in the sandbox's report.
const base = process.argv[2] ?? 'http://127.0.0.1:8787';
const auth = { authorization: 'Bearer test-key' };
const json = { ...auth, 'content-type': 'application/json' };

const order = (id, extra = {}) => ({
  id,
  total_paid_value: 120,
  creation_datetime: '2026-11-23T12:00:00Z',
  user: { id: `U-${id}` },
  payments: [{ id: `PAY-${id}`, card: { first_six_digits: '411111', last_four_digits: '1111' } }],
  ...extra,
});

/** The calls of the session: what the application sends, and which mistake it makes. */
export const sessionCalls = [
  {
    note: 'a status update before its order is created',
    method: 'PUT',
    path: '/v2/order',
    headers: json,
    body: { id: 'ORD-1', status: 'approved' },
  },
  {
    note: 'the order is created (correct)',
    method: 'POST',
    path: '/v2/order',
    headers: json,
    body: order('ORD-1'),
  },
  {
    note: 'an order the evaluation rejects (correct call)',
    method: 'POST',
    path: '/v2/order',
    headers: json,
    body: order('ORD-2', { evaluate: true, total_paid_value: 5000 }),
  },
  {
    note: "a fraud mark for that order, which the service's evaluation rejected",
    method: 'POST',
    path: '/v2/order/mark_fraudulent',
    headers: json,
    body: { order_id: 'ORD-2', fraud_signal_type: 'chargeback' },
  },
  {
    note: 'an order without Content-Type',
    method: 'POST',
    path: '/v2/order',
    headers: auth,
    body: order('ORD-3'),
  },
  {
    note: 'a status change for that order, whose creation the service refused (order-invalid)',
    method: 'PUT',
    path: '/v2/order',
    headers: json,
    body: { id: 'ORD-3', status: 'approved' },
  },
  {
    note: 'the same status twice',
    method: 'PUT',
    path: '/v2/order',
    headers: json,
    body: { id: 'ORD-3', status: 'approved' },
  },
  {
    note: 'a delivery with a local-time delivery_datetime',
    method: 'PUT',
    path: '/v2/order/delivery',
    headers: json,
    body: { id: 'DEL-3', order_id: 'ORD-3', delivery_datetime: '2026-11-23T14:30:00' },
  },
];

/** Sends the session's calls in order; the body goes as bytes, so no Content-Type is added unless the call sets one. */
export async function runSession(url) {
  const answers = [];
  for (const call of sessionCalls) {
    const response = await fetch(`${url}${call.path}`, {
      method: call.method,
      headers: call.headers,
      body: Buffer.from(JSON.stringify(call.body)),
    });
    answers.push({ ...call, status: response.status, answer: await response.text() });
  }
  return answers;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [position, { note, method, path, status, answer }] of (await runSession(base)).entries()) {
    process.stdout.write(`#${position + 1} ${method} ${path} -> ${status} ${answer}   (${note})\n`);
  }
}

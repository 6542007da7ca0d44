import { afterEach, describe, expect, it } from 'vitest';
import { testSandbox } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const bulk = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`field_${i}`, 'x'.repeat(90)]));
const order = (id: string, extra: object = {}) => ({
  id,
  total_paid_value: 100,
  creation_datetime: '2026-01-01T00:00:00Z',
  user: { id: 'U' },
  payments: [{ id: `P-${id}` }],
  custom_data: bulk,
  ...extra,
});

describe('collect sandbox --keep-mb: a long session in bounded memory', () => {
  it(
    'lets the least recently used orders go past the budget, still takes their updates, and the ' +
      'report counts them',
    async () => {
      const sandbox = await testSandbox({
        judge: { strict: false },
        keepBytes: 1024 * 1024,
      });
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${sandbox.url}${path}`, {
          method,
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return response.status;
      };
      // 20 orders of 100 KB: 2 MB, four times what the store may keep (512 KB when judging, half of 1 MB).
      for (let i = 0; i < 20; i++) expect(await call('POST', '/v2/order', order(`ORD-${i}`))).toBe(201);
      expect(await call('GET', '/_sandbox/orders/ORD-0')).toBe(410);
      expect(await call('GET', '/_sandbox/orders/ORD-19')).toBe(200);
      expect(await call('GET', '/_sandbox/orders/NEVER')).toBe(404);
      // A let-go order's update is still taken; an order never created is still refused.
      expect(await call('PUT', '/v2/order', { id: 'ORD-0', status: 'approved' })).toBe(200);
      expect(await call('PUT', '/v2/order', { id: 'NEVER', status: 'approved' })).toBe(404);
      // Flow rules go on for orders in budget.
      expect(await call('PUT', '/v2/order', { id: 'ORD-19', status: 'approved' })).toBe(200);
      expect(await call('PUT', '/v2/order', { id: 'ORD-19', status: 'approved' })).toBe(200);
      const report = sandbox.report()!;
      const letGo = report.notes.find((note) => note.code === 'orders-not-held');
      expect(letGo?.count).toBeGreaterThanOrEqual(10);
      expect(sandbox.lettingGo()).toBe(letGo?.count);
      expect(report.issues.map((issue) => `${issue.line} ${issue.code}`)).toEqual([
        '22 unknown-order',
        '24 status-unchanged',
      ]);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts, StateWrites } from '../resources/resource.js';
import { namespaceOf, rememberRecords, type Remembered } from './remembered.js';

/** Every write and journal line, in order, as text. */
function recorded(records: Remembered[]): string[] {
  const lines: string[] = [];
  const writes = new Proxy(
    {},
    {
      get:
        (_, name) =>
        (...args: unknown[]) =>
          void lines.push(
            `${String(name)} ` +
              `${args.map((arg) => (typeof arg === 'object' ? JSON.stringify(arg) : String(arg))).join(' ')}`,
          ),
    },
  ) as StateWrites;
  rememberRecords(
    records,
    writes,
    (hash, endpoint, orderId, outcome) =>
      void lines.push(`journal ${hash} ${endpoint} ${orderId} ${outcome}`),
  );
  return lines;
}

const order = (outcome: Remembered['outcome']): Remembered => ({
  resource: resources.order,
  hash: 'h1',
  outcome,
  facts: { kind: 'order', orderId: 'A', key: 'A', evaluate: true, payments: [], claims: [] } as Facts,
});
const status = (outcome: Remembered['outcome']): Remembered => ({
  resource: resources.status,
  hash: 'h2',
  outcome,
  facts: { kind: 'status', orderId: 'A', key: 'A', status: 'approved' } as Facts,
});

describe('rememberRecords', () => {
  it('journals a rejected or failed record and changes nothing else: the service does not know it', () => {
    expect(recorded([order('rejected'), status('failed')])).toEqual([
      'journal h1 order A rejected',
      'journal h2 status A failed',
    ]);
  });
  it(
    'remembers an accepted creation and journals it; a dry run knows its creations by their hash in ' +
      'orders alone',
    () => {
      const created = expect.stringMatching(/^createOrder \{"orderId":"A","hash":"h1","evaluate":true/);
      expect(recorded([order('accepted')])).toEqual([created, 'journal h1 order A accepted']);
      expect(recorded([order('validated')])).toEqual([created]);
    },
  );
  it('remembers an update and journals it, sent or only validated', () => {
    expect(recorded([status('validated')])).toEqual([
      'setLastStatus A approved',
      'journal h2 status A validated',
    ]);
  });
});

describe('namespaceOf', () => {
  it(
    'gives one namespace per service base URL, whatever its case or trailing slash, and its own to a ' +
      'dry run without one',
    () => {
      expect(namespaceOf('https://Collect.example.com/')).toBe(namespaceOf('https://collect.example.com'));
      expect(namespaceOf('https://other.example.com')).not.toBe(namespaceOf('https://collect.example.com'));
      expect(namespaceOf(undefined)).toBe('dry-run');
    },
  );
});

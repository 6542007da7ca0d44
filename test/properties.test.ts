/** Property-based tests: any bytes get a verdict; any valid record survives CSV and NDJSON unchanged. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../src/convert/csvLine.js';
import { flattenRecord } from '../src/convert/flatten.js';
import { readCsvRecords } from '../src/decode/csvRecords.js';
import { readNdjsonRecords } from '../src/decode/ndjsonRecords.js';
import { resources } from '../src/resources/registry.js';
import type { Resource } from '../src/resources/resource.js';
import { validateRecord } from '../src/validate/validateRecord.js';
import { runCli } from './helpers/memoryIo.js';

/**
 * Fixed budgets, no time limits: fast-check's default of 100 runs per property (a new seed each
 * run, printed with the shrunk counterexample on failure). Every run is in memory and cheap.
 */
const VERDICT_RUNS = 100;
const ROUND_TRIP_RUNS = 100;

const tricky = fc.string({
  unit: fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '"',
    ',',
    ':',
    '\n',
    '\r',
    '\\',
    ' ',
    'a',
    '1',
    '.',
    'é',
    '\u0000',
    'i',
    'd',
  ),
});
const inputs = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  tricky,
);

describe('any input gets a verdict', () => {
  for (const format of ['json', 'ndjson', 'csv']) {
    it(`${format}: exit 0, 1 or 2, never an internal error or a stack trace`, async () => {
      await fc.assert(
        fc.asyncProperty(inputs, async (text) => {
          const { code, stderr } = await runCli(
            ['status', '-', '--input-format', format, '--dry-run', '--no-state', '--format', 'json'],
            { stdin: text },
          );
          expect([0, 1, 2]).toContain(code);
          expect(stderr).not.toMatch(/internal error|\n\s+at /);
        }),
        { numRuns: VERDICT_RUNS },
      );
    });
  }
});

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const digits = fc.stringMatching(/^[0-9]{1,11}$/);
const coordinate = (limit: number) =>
  fc
    .double({ min: -limit, max: limit, noNaN: true, noDefaultInfinity: true })
    .map((n) => (Object.is(n, -0) ? 0 : n));
const datetime = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => `${date.toISOString().slice(0, 19)}Z`);
const customData = fc.dictionary(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
  fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.boolean()),
  { maxKeys: 3 },
);
const address = fc.record(
  {
    street_name: text,
    street_number: text,
    city: text,
    state: text,
    country: text,
    zip_code: fc.option(text, { nil: undefined }),
    latitude: fc.option(coordinate(90), { nil: undefined }),
    longitude: fc.option(coordinate(180), { nil: undefined }),
  },
  { requiredKeys: ['street_name', 'street_number', 'city', 'state', 'country'] },
);

const statusRecord = fc.record(
  {
    id: text,
    status: fc.constantFrom(
      'approved',
      'declined',
      'pending',
      'cancelled',
      'manual_analysis',
      'unauthorized',
    ),
    status_reason: text,
    custom_data: customData,
  },
  { requiredKeys: ['id', 'status'] },
);

const deliveryRecord = fc.record(
  {
    id: text,
    order_id: text,
    type: fc.constantFrom('normal', 'express', 'pickup'),
    delivery_datetime: datetime,
    scheduled: fc.boolean(),
    deliverer: fc
      .record({
        id: text,
        name: text,
        phone: fc.option(fc.tuple(digits, digits), { nil: undefined }),
        address: fc.option(address, { nil: undefined }),
      })
      .map(({ phone, ...rest }) =>
        phone ? { ...rest, phone_number: phone[0], phone_country_code: phone[1] } : rest,
      ),
  },
  { requiredKeys: ['id', 'order_id'] },
);

const fraudRecord = fc.oneof(
  fc.record(
    {
      order_id: text,
      fraud_signal_type: fc.constantFrom('acquirer', 'manual_analysis', 'chargeback', 'other'),
      fraud_comment: text,
    },
    { requiredKeys: ['order_id', 'fraud_signal_type'] },
  ),
  // The service requires a comment that names the other solution: one of spaces only is no comment.
  fc.record({
    order_id: text,
    fraud_signal_type: fc.constant('third_party_antifraud'),
    fraud_comment: text.filter((comment) => comment.trim() !== ''),
  }),
);

const paymentRecord = fc.record(
  { id: text, order_id: text, acquirer_id: text, custom_data: customData },
  { requiredKeys: ['id', 'order_id', 'acquirer_id'] },
);

/** Drops undefined fields at any depth, as JSON does. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

async function throughCsv(resource: Resource, record: Record<string, unknown>) {
  const cells = flattenRecord(resource.schema, record);
  const csv = `${csvLine(cells.map(([header]) => header))}\n${csvLine(cells.map(([, cell]) => cell))}\n`;
  const out = [];
  for await (const read of readCsvRecords(
    (async function* () {
      yield Buffer.from(csv);
    })(),
    'x.csv',
    { schema: resource.schema },
  ))
    out.push(read);
  return out;
}

async function throughNdjson(record: Record<string, unknown>) {
  const out = [];
  for await (const read of readNdjsonRecords(
    (async function* () {
      yield `${JSON.stringify(record)}\n`;
    })(),
    'x.ndjson',
  ))
    out.push(read);
  return out;
}

describe('valid records survive a round trip', () => {
  const cases = [
    ['status', statusRecord],
    ['delivery', deliveryRecord],
    ['fraud', fraudRecord],
    ['payment', paymentRecord],
  ] as const;
  for (const [name, arbitrary] of cases) {
    it(`${name}: through CSV and through NDJSON, unchanged and still valid`, async () => {
      const resource = resources[name];
      await fc.assert(
        fc.asyncProperty(arbitrary as fc.Arbitrary<object>, async (generated) => {
          const record = plain(generated) as Record<string, unknown>;
          expect(
            validateRecord(resource, record, { now: new Date() }).filter((i) => i.severity === 'error'),
          ).toEqual([]);
          const [csv] = await throughCsv(resource, record);
          expect(csv?.issues).toEqual([]);
          expect(csv?.value).toEqual(record);
          const [line] = await throughNdjson(record);
          expect(line?.value).toEqual(record);
        }),
        { numRuns: ROUND_TRIP_RUNS },
      );
    });
  }
});

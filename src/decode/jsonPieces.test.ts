import { describe, expect, it } from 'vitest';
import { contentHash } from '../flow/canonical.js';
import { statusResource } from '../resources/status/index.js';
import { isRecord } from '../schema/checks.js';
import { validateRecord } from '../validate/validateRecord.js';
import { decodeUtf8 } from './decodeUtf8.js';
import { readJsonPieces } from './jsonPieces.js';
import { readJsonRecords } from './jsonRecords.js';
import { checkedUtf8, InvalidUtf8Error } from './utf8Check.js';
import type { RecordNeeds, SourceRecord } from './sourceRecord.js';

const now = new Date('2026-01-01T00:00:00Z');
const limits = { maxRecordBytes: 400 };
const bytesOf = (text: string) =>
  (async function* () {
    for (let at = 0; at < text.length; at += 70_001) yield Buffer.from(text.slice(at, at + 70_001));
  })();

/** Every kind of element a JSON export holds, good and bad, repeated past the size read on this thread. */
function input(elements: number, end = '\n]\n'): string {
  const kinds = [
    (n: number) => `{"id":"R${n}","status":"approved","status_reason":"checked ${n} é"}`,
    (n: number) => `{"id":"R${n}",\n "status":"aproved"}`,
    (n: number) => `{"id":"R${n}","status":"declined"}\r`,
    () => '{"id": broken, "x": 1}',
    (n: number) => `{"id":"R${n}","status":"pending","collect_reason":"fed back"}`,
    (n: number) => `{"id":"R${n}","status":"approved","status_reason":"${'x'.repeat(500)}"}`,
    () => '[1,2]',
    () => '"text"',
    (n: number) => `{"id":"R${n}","status":"approved","extra":12345678901234567890}`,
    () => `${'['.repeat(40)}${']'.repeat(40)}`,
  ];
  return `\uFEFF[\n${Array.from({ length: elements }, (_, n) => kinds[n % kinds.length]!(n)).join(',\n')}${end}`;
}

/**
 * What the run sees of a record: what the reader checked, or (a record not checked yet) its own check, as
 * readRecords does it.
 */
function seen(record: SourceRecord) {
  const { index, line, value, raw } = record;
  if (record.checked)
    return {
      index,
      line,
      issues: record.issues,
      facts: record.checked.facts,
      hash: record.checked.hash,
      value,
      raw,
    };
  const issues =
    value === undefined ? record.issues : validateRecord(statusResource, value, { now }, record.issues);
  const facts = isRecord(value) ? statusResource.facts(value) : null;
  return { index, line, issues, facts, hash: facts ? contentHash('status', value) : '', value, raw };
}

/** Every record read and checked on this thread. */
async function here(text: string) {
  const out = [];
  for await (const record of readJsonRecords(decodeUtf8(bytesOf(text)), 'x.json', limits))
    out.push(seen(record));
  return out;
}

async function inPieces(text: string, needs: RecordNeeds) {
  const out: SourceRecord[] = [];
  for await (const record of readJsonPieces(bytesOf(text), 'x.json', limits, {
    endpoint: 'status',
    now,
    needs,
  }))
    out.push(record);
  return out;
}

describe('readJsonPieces', () => {
  it.each([
    ['a small input, read on this thread', 300, '\n]\n'],
    ['a large input, its elements read by the workers', 6000, '\n]\n'],
    ['a large truncated input', 6000, ',\n{"id":"T","status'],
    ['a large input with text after its end', 6000, '] x'],
  ])(
    'gives every record the location, issues, facts and hash of reading and checking it here: %s',
    async (_, elements, end) => {
      const text = input(elements, end);
      const expected = await here(text);
      const got = await inPieces(text, 'values');
      expect(got.map(seen)).toEqual(expected);
      expect(got.some((record) => record.checked !== undefined)).toBe(elements > 1000);
    },
  );

  it('sends back no value or text when the run needs only digests', async () => {
    const got = await inPieces(input(6000), 'digests');
    expect(got.every((record) => record.value === undefined && record.raw === undefined)).toBe(true);
    expect(got.filter((record) => record.checked?.hash).length).toBeGreaterThan(2000);
  });

  it('reads every element before bytes that are not UTF-8, then fails there, as a stream does', async () => {
    const good = input(6000, ',\n');
    const bytes = checkedUtf8(
      (async function* () {
        yield* bytesOf(good);
        yield Buffer.from([0x7b, 0xff, 0x7d, 0x0a]);
      })(),
    );
    const got: SourceRecord[] = [];
    const reading = (async () => {
      for await (const record of readJsonPieces(bytes, 'x.json', limits, {
        endpoint: 'status',
        now,
        needs: 'values',
      }))
        got.push(record);
    })();
    await expect(reading).rejects.toThrow(InvalidUtf8Error);
    const expected: unknown[] = [];
    const before = checkedUtf8(
      (async function* () {
        yield* bytesOf(good);
        yield Buffer.from([0x7b, 0xff, 0x7d, 0x0a]);
      })(),
    );
    await expect(
      (async () => {
        for await (const record of readJsonRecords(decodeUtf8(before), 'x.json', limits))
          expected.push(seen(record));
      })(),
    ).rejects.toThrow(InvalidUtf8Error);
    expect(got.map(seen)).toEqual(expected);
  });
});

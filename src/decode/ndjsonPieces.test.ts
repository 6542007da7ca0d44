import { describe, expect, it } from 'vitest';
import { contentHash } from '../flow/canonical.js';
import { statusResource } from '../resources/status/index.js';
import { isRecord } from '../schema/checks.js';
import { validateRecord } from '../validate/validateRecord.js';
import { decodeUtf8 } from './decodeUtf8.js';
import { readNdjsonPieces } from './ndjsonPieces.js';
import { readNdjsonRecords } from './ndjsonRecords.js';
import { checkedUtf8, InvalidUtf8Error } from './utf8Check.js';
import type { RecordNeeds, SourceRecord } from './sourceRecord.js';

const now = new Date('2026-01-01T00:00:00Z');
const limits = { maxRecordBytes: 400 };
const bytesOf = (text: string) =>
  (async function* () {
    for (let at = 0; at < text.length; at += 70_001) yield Buffer.from(text.slice(at, at + 70_001));
  })();

/** Every kind of line an NDJSON export holds, good and bad, repeated past the size read on this thread. */
function input(lines: number): string {
  const kinds = [
    (n: number) => `{"id":"R${n}","status":"approved","status_reason":"checked ${n}"}`,
    (n: number) => `{"id":"R${n}","status":"aproved"}`,
    () => '',
    (n: number) => `{"id":"R${n}","status":"declined"}\r`,
    () => '{"id": broken',
    (n: number) => `{"id":"R${n}","status":"pending","collect_reason":"fed back"}`,
    (n: number) => `{"id":"R${n}","status":"approved","status_reason":"${'x'.repeat(500)}"}`,
    () => '[1,2]',
    (n: number) => `{"id":"R${n}","status":"approved","extra":12345678901234567890}`,
    () => '   ',
  ];
  return `\uFEFF${Array.from({ length: lines }, (_, n) => kinds[n % kinds.length]!(n)).join('\n')}`;
}

/**
 * What the run sees of a record: what the reader checked, or (a record not checked yet) its own check, as
 * readAll does it.
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
  for await (const record of readNdjsonRecords(decodeUtf8(bytesOf(text)), 'x.ndjson', limits))
    out.push(seen(record));
  return out;
}

async function inPieces(text: string, needs: RecordNeeds) {
  const out: SourceRecord[] = [];
  for await (const record of readNdjsonPieces(bytesOf(text), 'x.ndjson', limits, {
    endpoint: 'status',
    now,
    needs,
  }))
    out.push(record);
  return out;
}

describe('readNdjsonPieces', () => {
  it.each([
    ['a small input, read on this thread', 300],
    ['a large input, cut into pieces read by the workers and this thread', 16_000],
  ])(
    'gives every record the location, issues, facts and hash of reading and checking it here: %s',
    async (_, lines) => {
      const text = input(lines);
      const expected = await here(text);
      const got = await inPieces(text, 'values');
      expect(got.map(seen)).toEqual(expected);
      expect(got.every((record) => record.checked !== undefined)).toBe(lines > 1000);
    },
  );

  it('sends back no value or text when the run needs only digests', async () => {
    const got = await inPieces(input(16_000), 'digests');
    expect(
      got.every(
        (record) =>
          record.value === undefined && record.raw === undefined && record.checked?.hash !== undefined,
      ),
    ).toBe(true);
  });

  it('reads every line before bytes that are not UTF-8, then fails there, as a stream does', async () => {
    const good = input(16_000);
    const bytes = checkedUtf8(
      (async function* () {
        yield* bytesOf(good);
        yield Buffer.from([0x0a, 0x7b, 0xff, 0x7d, 0x0a]);
      })(),
    );
    const got: SourceRecord[] = [];
    await expect(
      (async () => {
        for await (const record of readNdjsonPieces(bytes, 'x.ndjson', limits, {
          endpoint: 'status',
          now,
          needs: 'values',
        }))
          got.push(record);
      })(),
    ).rejects.toThrow(InvalidUtf8Error);
    expect(got.map(seen)).toEqual(await here(good));
  });

  it('reads a line with no break for megabytes as a stream, reported too long, and goes on', async () => {
    const text = `${input(2000)}\n{"id":"${'y'.repeat(5_000_000)}"}\n{"id":"LAST","status":"approved"}\n`;
    const got = await inPieces(text, 'values');
    const expected = await here(text);
    expect(
      got.slice(-2).map((record) => [record.index, record.line, record.issues.map((issue) => issue.code)]),
    ).toEqual(
      expected
        .slice(-2)
        .map((record) => [record.index, record.line, record.issues.map((issue) => issue.code)]),
    );
  });
});

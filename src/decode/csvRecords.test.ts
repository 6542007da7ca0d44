import { describe, expect, it } from 'vitest';
import { statusResource, statusSchema } from '../resources/status/index.js';
import { validateRecord } from '../validate/validateRecord.js';
import { contentHash } from '../flow/canonical.js';
import { INLINE_PARSE_BYTES, readCsvRecords } from './csvRecords.js';
import type { RecordNeeds, SourceRecord } from './sourceRecord.js';
import { checkedUtf8, InvalidUtf8Error } from './utf8Check.js';

async function readAll(...chunks: string[]) {
  const out = [];
  const input = (async function* () {
    yield* chunks.map((c) => Buffer.from(c));
  })();
  for await (const record of readCsvRecords(input, 'x.csv', { schema: statusSchema })) {
    out.push([record.index, record.line, record.value ?? null, record.issues.map((i) => i.code)]);
  }
  return out;
}

describe('readCsvRecords', () => {
  it('gives each row its starting line; a quoted multi-line cell does not shift later rows', async () => {
    expect(
      await readAll('\uFEFFid,status,status_reason\r\nA,approved,"two\r\nlines"\r\n\r\nB,declined,\r\n'),
    ).toEqual([
      [0, 2, { id: 'A', status: 'approved', status_reason: 'two\r\nlines' }, []],
      [1, 5, { id: 'B', status: 'declined' }, []],
    ]);
  });
  it('reads rows split across chunks', async () => {
    expect((await readAll('id,sta', 'tus\nA,appr', 'oved\nB,pending\n')).map((r) => r[2])).toEqual([
      { id: 'A', status: 'approved' },
      { id: 'B', status: 'pending' },
    ]);
  });
  it(
    'stops at an unbalanced quote after the rows before it, saying where and how many lines were not ' +
      'read',
    async () => {
      const read: unknown[] = [];
      const input = (async function* () {
        yield Buffer.from('id,status\nA,approved\n\nB,"declined\nC,pending\n');
      })();
      await expect(async () => {
        for await (const record of readCsvRecords(input, 'x.csv', { schema: statusSchema }))
          read.push(record.line);
      }).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/^x\.csv:4: .*1 line after it not read/),
      });
      expect(read).toEqual([2]);
    },
  );
  it('reports header problems once, as a file issue', async () => {
    expect(await readAll('id,id,status\nA,B,approved\n')).toEqual([
      [null, 1, null, ['duplicate-header']],
      [0, 2, { id: 'A', status: 'approved' }, []],
    ]);
  });
  it('warns about an unknown column once, on the header line, not on every row', async () => {
    expect(await readAll('id,status,statuss\nA,approved,x\nB,pending,y\n')).toEqual([
      [null, 1, null, ['unknown-field']],
      [0, 2, { id: 'A', status: 'approved', statuss: 'x' }, []],
      [1, 3, { id: 'B', status: 'pending', statuss: 'y' }, []],
    ]);
  });
  it(
    'reads an input too large to parse on this thread through the parse worker, lines and errors ' +
      'included',
    async () => {
      const rows = Array.from({ length: 2500 }, (_, n) => `R${n},approved,${'x'.repeat(60)}\n`);
      const input = `id,status,status_reason\n${rows.join('')}R2500,"declined\n`;
      expect(input.length).toBeGreaterThan(INLINE_PARSE_BYTES);
      const read: unknown[][] = [];
      const chunks = (async function* () {
        yield* [input.slice(0, 70000), input.slice(70000)].map((c) => Buffer.from(c));
      })();
      await expect(async () => {
        for await (const record of readCsvRecords(chunks, 'x.csv', { schema: statusSchema }))
          read.push([record.index, record.line, record.value ?? null, record.issues.map((i) => i.code)]);
      }).rejects.toMatchObject({
        message: expect.stringMatching(/^x\.csv:2502: .*0 lines after it not read/),
      });
      expect(read).toHaveLength(2500);
      expect(read[0]).toEqual([0, 2, { id: 'R0', status: 'approved', status_reason: 'x'.repeat(60) }, []]);
      expect(read[2499]).toEqual([
        2499,
        2501,
        { id: 'R2499', status: 'approved', status_reason: 'x'.repeat(60) },
        [],
      ]);
    },
  );
});

describe('readCsvRecords with a check', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  async function readChecked(input: string, needs: RecordNeeds = 'values') {
    const out = [];
    const bytes = (async function* () {
      yield Buffer.from(input);
    })();
    for await (const record of readCsvRecords(bytes, 'x.csv', {
      schema: statusSchema,
      check: { endpoint: 'status', now, needs },
    }))
      out.push(record);
    return out;
  }
  const rows = (count: number) =>
    Array.from({ length: count }, (_, n) =>
      n % 97 === 5
        ? `R${n},aproved,\n`
        : n % 89 === 3
          ? `,approved,${'x'.repeat(40)}\n`
          : `R${n},approved,${'x'.repeat(40)}\n`,
    );

  it.each([
    ['small input, checked on this thread', 300],
    ['large input, checked on the parse worker', 3000],
  ])('%s: every row carries the same issues as checking it here', async (_name, count) => {
    const input = `id,status,status_reason\n${rows(count).join('')}`;
    expect(input.length > INLINE_PARSE_BYTES).toBe(count > 1000);
    const read = await readChecked(input);
    expect(read).toHaveLength(count);
    for (const record of read) {
      expect(record.checked).toBeDefined();
      expect(record.issues).toEqual(
        validateRecord(statusResource, record.value, { now }, [], { fieldsChecked: true }),
      );
    }
    expect(read.filter((record) => record.issues.length > 0).map((record) => record.line)).toEqual(
      rows(count).flatMap((row, n) => (row.startsWith('R') && !row.includes('aproved') ? [] : [n + 2])),
    );
  });

  it('removes the formula guard of a rejects file before checking, on the parse worker too', async () => {
    const input =
      `id,status,status_reason,collect_reason\n` +
      `${Array.from({ length: 3000 }, (_, n) => `R${n},approved,'=SUM(A1),bad\n`).join('')}`;
    const read = await readChecked(input);
    expect(read.at(-1)?.value).toEqual({ id: 'R2999', status: 'approved', status_reason: '=SUM(A1)' });
    expect(read.at(-1)?.raw).toEqual({
      kind: 'csv',
      header: ['id', 'status', 'status_reason', 'collect_reason'],
      cells: ['R2999', 'approved', '=SUM(A1)', 'bad'],
    });
  });

  it('without values, gives each checked row its location, issues and order id only', async () => {
    const input = `id,status,status_reason\n${rows(3000).join('')}`;
    const full = await readChecked(input);
    const lean = await readChecked(input, 'ids');
    expect(lean.map((record) => [record.index, record.line, record.issues, record.checked?.orderId])).toEqual(
      full.map((record) => [
        record.index,
        record.line,
        record.issues,
        (record.value as { id?: string }).id ?? '',
      ]),
    );
    expect(lean.every((record) => record.value === undefined && record.raw === undefined)).toBe(true);
  });

  it.each([
    ['a small input', 300],
    ['a large input', 24_000],
  ])('reads every row of %s before bytes that are not UTF-8, then fails there', async (_name, count) => {
    const input = `id,status,status_reason\n${rows(count).join('')}`;
    const bytes = checkedUtf8(
      (async function* () {
        yield Buffer.from(input);
        yield Buffer.from([0x41, 0x2c, 0xff, 0x0a]);
      })(),
    );
    const read: unknown[] = [];
    await expect(
      (async () => {
        for await (const record of readCsvRecords(bytes, 'x.csv', {
          schema: statusSchema,
          check: { endpoint: 'status', now, needs: 'ids' },
        }))
          read.push(record.line);
      })(),
    ).rejects.toThrow(InvalidUtf8Error);
    expect(read).toEqual(rows(count).map((_, n) => n + 2));
  });

  it(
    'fails on bytes that are not UTF-8 inside a quoted cell of many lines, not on the quote they cut ' +
      'short',
    async () => {
      const input = `id,status,status_reason\n${rows(24_000).join('')}R-x,approved,"first line\nsecond `;
      const bytes = checkedUtf8(
        (async function* () {
          yield Buffer.from(input);
          yield Buffer.from([0xff, 0x22, 0x0a]);
        })(),
      );
      const read: SourceRecord[] = [];
      await expect(
        (async () => {
          for await (const record of readCsvRecords(bytes, 'x.csv', {
            schema: statusSchema,
            check: { endpoint: 'status', now, needs: 'ids' },
          }))
            read.push(record);
        })(),
      ).rejects.toThrow(InvalidUtf8Error);
      expect(read.map((record) => record.line)).toEqual(rows(24_000).map((_, n) => n + 2));
    },
  );

  it.each([
    ['small input, checked on this thread', 300],
    ['large input, cut into pieces checked by the parse workers', 24_000],
  ])(
    'with digests (%s), gives each row the flow facts and content hash of its value, and no value',
    async (_name, count) => {
      const input = `id,status,status_reason\n${rows(count).join('')}`;
      const full = await readChecked(input);
      const digested = await readChecked(input, 'digests');
      expect(digested.map((record) => [record.line, record.checked?.facts, record.checked?.hash])).toEqual(
        full.map((record) => {
          const facts = statusResource.facts(record.value as Record<string, unknown>);
          return [record.line, facts, facts ? contentHash('status', record.value) : ''];
        }),
      );
      expect(digested.every((record) => record.value === undefined && record.raw === undefined)).toBe(true);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { readJsonElement } from './jsonRecords.js';
import { readNdjsonLine } from './ndjsonLine.js';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const codes = (issues: { code: string; path: string }[]) => issues.map((issue) => [issue.code, issue.path]);

describe('a JSON line or element read', () => {
  it('is refused when its value nests too deep', () => {
    const line = readNdjsonLine(`{"a":${deep(40)}}`);
    expect(line.value).toBeUndefined();
    expect(codes(line.issues)).toEqual([['too-deep', '']]);
    expect(readJsonElement(`{"a":${deep(40)}}`).value).toBeUndefined();
  });

  it('is judged by its value where a repeated key dropped the deep part, its numbers still checked', () => {
    const text = `{"a":${deep(40)},"n":1e400,"a":1}`;
    for (const read of [readNdjsonLine(text), readJsonElement(text)]) {
      expect(read.value).toEqual({ a: 1, n: Infinity });
      expect(codes(read.issues)).toEqual([['inexact-number', 'n']]);
    }
  });

  it('names an inexact number and passes an exact one', () => {
    expect(codes(readNdjsonLine('{"id":"1","total_paid_value":123456789012345678}').issues)).toEqual([
      ['inexact-number', 'total_paid_value'],
    ]);
    expect(readNdjsonLine('{"id":"4111111111111111","total_paid_value":10.5}').issues).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { boundedLines } from './boundedLines.js';

async function lines(max: number, ...chunks: string[]) {
  const out = [];
  for await (const line of boundedLines(
    (async function* () {
      yield* chunks;
    })(),
    max,
  ))
    out.push(line);
  return out;
}

describe('boundedLines', () => {
  it('splits LF and CRLF lines across chunks, keeping a last line without a break', async () => {
    expect(await lines(100, 'a\r\nb', 'c\n\nd')).toEqual([
      { text: 'a' },
      { text: 'bc' },
      { text: '' },
      { text: 'd' },
    ]);
  });
  it('counts and drops a line over the limit, and goes on', async () => {
    expect(await lines(5, 'ok\n', '1234', '5678\nfine\n')).toEqual([
      { text: 'ok' },
      { tooLong: 8 },
      { text: 'fine' },
    ]);
  });
});

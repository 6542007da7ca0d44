import { describe, expect, it } from 'vitest';
import { checkedUtf8, InvalidUtf8Error } from './utf8Check.js';

async function run(...chunks: Buffer[]): Promise<string | number> {
  const out: Buffer[] = [];
  try {
    for await (const piece of checkedUtf8(
      (async function* () {
        yield* chunks;
      })(),
    ))
      out.push(piece);
    return Buffer.concat(out).toString('utf8');
  } catch (cause) {
    if (cause instanceof InvalidUtf8Error) return cause.line;
    throw cause;
  }
}

describe('checkedUtf8', () => {
  it('passes UTF-8 through, a multi-byte character split across chunks included', async () => {
    const text = Buffer.from('a,é\nb,日本\n');
    for (let cut = 1; cut < text.length; cut++)
      expect(await run(text.subarray(0, cut), text.subarray(cut))).toBe('a,é\nb,日本\n');
  });
  it('names the line of the first invalid sequence, and a truncated one at the end', async () => {
    expect(await run(Buffer.from('ok\nfine\n'), Buffer.from([0x62, 0xff, 0x0a]))).toBe(3);
    expect(await run(Buffer.from('x\n'), Buffer.from([0xc3]))).toBe(2);
    expect(await run(Buffer.from([0x41, 0xc3, 0x28]))).toBe(1);
  });
});

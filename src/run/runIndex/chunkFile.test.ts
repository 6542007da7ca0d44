import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkFile } from './chunkFile.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

describe('ChunkFile', () => {
  it(
    "gives back each bucket's text in the order appended, across chunks written out and the part " +
      'still held, and is deleted on close',
    () => {
      const path = join(tempDir('collect-chunks-'), 'run.jsonl');
      const file = new ChunkFile(path, 3);
      const appended: string[][] = [[], [], []];
      for (let i = 0; i < 30_000; i++) {
        const bucket = (i * 7) % 3;
        // Multi-byte text too: chunks are written as UTF-8 and read back by their byte length.
        // Now and then a record longer than a chunk (64 KB): written as a chunk of its own, in its place.
        const text = i % 9_999 === 5 ? `${i}:${'é'.repeat(40_000)},` : `${i}:${'é'.repeat(i % 5)},`;
        file.append(bucket, text);
        appended[bucket]!.push(text);
      }
      for (const bucket of [0, 1, 2]) {
        const chunks = [...file.chunksOf(bucket)];
        expect(chunks.length).toBeGreaterThan(1);
        for (const chunk of chunks) expect(chunk.endsWith(',')).toBe(true);
        expect(file.read(bucket)).toBe(appended[bucket]!.join(''));
      }
      expect(existsSync(path)).toBe(true);
      file.close();
      expect(existsSync(path)).toBe(false);
    },
  );
});

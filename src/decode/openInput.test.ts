import { readdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inputMeter } from './inputMeter.js';
import { inputSpec, openInput } from './openInput.js';
import { tempDir } from '../../test/helpers/tempDir.js';

describe('openInput', () => {
  it('loses nothing when its reader comes after an await, and counts the bytes read for the progress', async () => {
    const path = join(tempDir('collect-open-'), 'orders.csv');
    const text = `id,status\n${'A,approved\n'.repeat(50_000)}`;
    writeFileSync(path, text);
    const before = inputMeter.bytes;
    const stream = openInput(inputSpec(path), new PassThrough());
    await sleep(50); // the input opened, its reader not yet there (a module loaded meanwhile, say)
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(text);
    await sleep(10);
    expect(inputMeter.bytes - before).toBe(Buffer.byteLength(text));
  });
  it('closes a .gz file when its reader stops early', async () => {
    const path = join(tempDir('collect-open-'), 'orders.csv.gz');
    writeFileSync(path, gzipSync(Buffer.from(`id,status\n${'A,approved\n'.repeat(200_000)}`)));
    // Descriptors on this very file: the process's others (a worker shared with other test files) come and go.
    const open = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === realpathSync(path);
        } catch {
          return false;
        }
      }).length;
    const before = open();
    for (let n = 0; n < 3; n++) {
      const stream = openInput(inputSpec(path), new PassThrough());
      for await (const _chunk of stream) break; // the reader stops after one chunk, and destroys the stream
    }
    await sleep(50);
    expect(before).toBe(0);
    expect(open()).toBe(0);
  });
});

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reasonTable } from '../chargebacks/chargebackFiles.js';
import { readMappingFile } from '../compose/mappingFile.js';
import { MIB } from './configFile.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const folder = () => tempDir('collect-config-');

function fifo(): string {
  const path = join(folder(), 'pipe');
  execFileSync('mkfifo', [path]);
  return path;
}

// Before: a FIFO with no writer blocked for ever, /dev/zero was read to 636 MB (or out of memory).
describe.skipIf(process.platform === 'win32')('the small files options name (the key file rule)', () => {
  it.each([
    ['--map', (file: string) => readMappingFile(file)],
    ['--reason-categories', (file: string) => reasonTable(file)],
  ])('%s refuses a FIFO at once, without waiting for a writer', async (option, read) => {
    const file = fifo();
    await expect(read(file)).rejects.toMatchObject({
      exitCode: 2,
      message: `${option} ${file}: is a FIFO (named pipe), not a regular file; refused`,
    });
  });

  it.each([
    ['--map', (file: string) => readMappingFile(file)],
    ['--reason-categories', (file: string) => reasonTable(file)],
  ])('%s refuses /dev/zero as a device, reading nothing', async (option, read) => {
    await expect(read('/dev/zero')).rejects.toMatchObject({
      exitCode: 2,
      message: `${option} /dev/zero: is a device, not a regular file; refused`,
    });
  });

  it('refuses a mapping over 1 MiB before reading it, naming the cap', async () => {
    const file = join(folder(), 'map.yaml');
    writeFileSync(file, `# ${'x'.repeat(MIB)}\nid: Id\n`);
    await expect(readMappingFile(file)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--map .*: is 1,048,586 bytes; .*\(at most 1 MiB\); refused$/),
    });
  });
});

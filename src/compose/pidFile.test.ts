import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPidFile, removePidFile, writePidFile } from './pidFile.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const dir = () => tempDir('collect-pid-');

describe('the sandbox pid file', () => {
  it('is written whole with this process id, and removed only while it still names this process', () => {
    const file = join(dir(), 'sandbox.pid');
    checkPidFile(file);
    writePidFile(file);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    removePidFile(file);
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, '999999999\n');
    removePidFile(file);
    expect(readFileSync(file, 'utf8')).toBe('999999999\n');
  });
  it('takes over a stale file, and refuses one that names a running process or holds something else', () => {
    const folder = dir();
    writeFileSync(join(folder, 'stale.pid'), '999999999\n');
    expect(() => checkPidFile(join(folder, 'stale.pid'))).not.toThrow();
    writeFileSync(join(folder, 'running.pid'), `${process.ppid}\n`);
    expect(() => checkPidFile(join(folder, 'running.pid'))).toThrow(
      `process ${process.ppid} named there is running`,
    );
    writeFileSync(join(folder, 'notes.txt'), '12 notes\n');
    expect(() => checkPidFile(join(folder, 'notes.txt'))).toThrow('does not hold a process id');
  });
  it('says which file cannot be written', () => {
    expect(() => writePidFile(join(dir(), 'missing', 'sandbox.pid'))).toThrow(
      /--pid-file .*sandbox\.pid: cannot be written \(ENOENT\)/,
    );
  });
});

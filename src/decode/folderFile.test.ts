import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findInFolder, realFolder } from './folderFile.js';
import { tempDir } from '../../test/helpers/tempDir.js';

let parent = '';
afterEach(() => rmSync(parent, { recursive: true, force: true }));

/** parent/in (the folder, with a.csv and sub/b.csv) and parent/out/c.csv. */
function folders(): string {
  parent = tempDir('collect-folder-file-');
  mkdirSync(join(parent, 'in', 'sub'), { recursive: true });
  mkdirSync(join(parent, 'out'));
  for (const file of ['in/a.csv', 'in/..a.csv', 'in/sub/b.csv', 'out/c.csv'])
    writeFileSync(join(parent, file), 'x\n1\n');
  return join(parent, 'in');
}

describe('findInFolder', () => {
  it('finds names inside the folder by their real path, a name that merely starts with two dots included', async () => {
    const dir = folders();
    const real = await realFolder(dir);
    symlinkSync('sub/b.csv', join(dir, 'link.csv'));
    for (const [name, file] of [
      ['a.csv', 'a.csv'],
      ['..a.csv', '..a.csv'],
      ['sub/../a.csv', 'a.csv'],
      ['link.csv', 'sub/b.csv'],
    ]) {
      expect(await findInFolder(dir, real, name!)).toEqual({
        kind: 'file',
        path: join(realpathSync(dir), file!),
      });
    }
  });

  it('refuses ../, absolute paths, links out and loops; a folder or a named pipe is missing, not read', async () => {
    const dir = folders();
    const real = await realFolder(dir);
    symlinkSync(join(parent, 'out', 'c.csv'), join(dir, 'out.csv'));
    symlinkSync('loop.csv', join(dir, 'loop.csv'));
    execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
    expect(await findInFolder(dir, real, '../out/c.csv')).toEqual({
      kind: 'refused',
      reason: "not inside the inputs' folder",
    });
    expect(await findInFolder(dir, real, join(parent, 'out', 'c.csv'))).toEqual({
      kind: 'refused',
      reason: "not inside the inputs' folder",
    });
    expect(await findInFolder(dir, real, 'out.csv')).toEqual({
      kind: 'refused',
      reason: `a symbolic link to ${realpathSync(join(parent, 'out', 'c.csv'))}, outside the inputs' folder`,
    });
    expect(await findInFolder(dir, real, 'loop.csv')).toEqual({
      kind: 'refused',
      reason: 'a loop of symbolic links',
    });
    expect(await findInFolder(dir, real, 'sub')).toEqual({ kind: 'missing' });
    expect(await findInFolder(dir, real, 'pipe.csv')).toEqual({ kind: 'missing' });
    expect(await findInFolder(dir, real, 'none.csv')).toEqual({ kind: 'missing' });
  });
});

import { readFileSync, statSync, symlinkSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendResultsFile, createRejectsFile, isRejectsFile, rejectsPaths } from './safeOutput.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const dir = () => tempDir('collect-safe-output-');

/** Writes and closes a stream; resolves with the error that open or write met, if any. */
const finish = (stream: WriteStream, text: string) =>
  new Promise<NodeJS.ErrnoException | null | undefined>((resolve) =>
    stream.end(text, (cause?: NodeJS.ErrnoException | null) => resolve(cause)),
  );

describe('createRejectsFile', () => {
  it('creates a new file 0600', async () => {
    const path = join(dir(), 'rejects.csv');
    expect(await finish(createRejectsFile(path), 'id,collect_reason\n')).toBeFalsy();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symbolic link planted at the path (even between the check and the open)', async () => {
    const base = dir();
    writeFileSync(join(base, 'victim'), 'precious\n');
    symlinkSync(join(base, 'victim'), join(base, 'rejects.csv'));
    expect((await finish(createRejectsFile(join(base, 'rejects.csv')), 'x\n'))?.code).toBe('EEXIST');
    expect(readFileSync(join(base, 'victim'), 'utf8')).toBe('precious\n');
  });

  it('replaces an earlier rejects file, and never a file it did not write', async () => {
    const base = dir();
    writeFileSync(join(base, 'old.csv'), 'id,collect_reason\nA,bad\n');
    writeFileSync(join(base, 'mine.csv'), 'id,status\nA,approved\n');
    expect(
      await finish(createRejectsFile(join(base, 'old.csv')), 'id,collect_reason\nB,worse\n'),
    ).toBeFalsy();
    expect(readFileSync(join(base, 'old.csv'), 'utf8')).toBe('id,collect_reason\nB,worse\n');
    expect((await finish(createRejectsFile(join(base, 'mine.csv')), 'x\n'))?.code).toBe('EEXIST');
    expect(readFileSync(join(base, 'mine.csv'), 'utf8')).toBe('id,status\nA,approved\n');
  });
});

describe('appendResultsFile', () => {
  it('appends to a file, never through a symbolic link', async () => {
    const base = dir();
    writeFileSync(join(base, 'results.ndjson'), '{"a":1}\n');
    expect(await finish(appendResultsFile(join(base, 'results.ndjson')), '{"a":2}\n')).toBeFalsy();
    expect(readFileSync(join(base, 'results.ndjson'), 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    writeFileSync(join(base, 'victim'), 'precious\n');
    symlinkSync(join(base, 'victim'), join(base, 'link.ndjson'));
    expect((await finish(appendResultsFile(join(base, 'link.ndjson')), '{"a":3}\n'))?.code).toBe('ELOOP');
    expect(readFileSync(join(base, 'victim'), 'utf8')).toBe('precious\n');
  });
});

describe('isRejectsFile', () => {
  it.each([
    ['an empty file', '', true],
    ['a CSV rejects file', 'id,status,collect_reason\r\nA,x,bad\r\n', true],
    ['an NDJSON rejects file', '{"id":"A","collect_reason":"bad"}\n', true],
    [
      'a JSON rejects file',
      '[\n{"id":"A","collect_reason":"bad"},\n{"id":"B","collect_reason":"bad"}\n]\n',
      true,
    ],
    ['an empty JSON rejects file', '[]\n', true],
    ['a CSV export', 'id,status\nA,approved\n', false],
    ['a CSV whose reason column is not last', 'collect_reason,id\nbad,A\n', false],
    ['NDJSON records', '{"id":"A"}\n', false],
    ['a JSON array of records', '[\n{"id":"A"}\n]\n', false],
    ['a line of spaces', '   \n', false],
  ])('%s: %s', (_name, text, expected) => {
    const path = join(dir(), 'file');
    writeFileSync(path, text);
    expect(isRejectsFile(path)).toBe(expected);
  });
});

describe('rejectsPaths', () => {
  it('is PATH for one input, PATH/NAME without .gz for several', () => {
    expect([...rejectsPaths('r.csv', [{ name: 'in/a.csv', format: 'csv', gzip: false }]).values()]).toEqual([
      'r.csv',
    ]);
    expect([
      ...rejectsPaths('r', [
        { name: 'in/a.csv.gz', format: 'csv', gzip: true },
        { name: '-', format: 'ndjson', gzip: false },
      ]).values(),
    ]).toEqual([join('r', 'a.csv'), join('r', 'stdin.ndjson')]);
  });
});

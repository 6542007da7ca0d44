/**
 * Hostile state files, each made from a real state and then damaged: every one gets exit 2,
 * the file named and what to do; never a stack trace, never exit 70 or 1.
 */
import {
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/platform/sqlite.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const STATE_FILE = 'dry-run.sqlite';
let work: string;
let input: string;
let good: string;

beforeAll(async () => {
  work = tempDir('collect-state-errors-');
  input = join(work, 'status.ndjson');
  const lines = Array.from({ length: 3000 }, (_, i) =>
    JSON.stringify({ id: `ORD-${i}`, status: 'approved', status_reason: 'checked by hand' }),
  );
  writeFileSync(input, `${lines.join('\n')}\n`);
  const { code } = await runCli([
    'status',
    input,
    '--dry-run',
    '--state',
    join(work, 'good'),
    '--format',
    'json',
  ]);
  expect(code).toBe(0);
  // One plain file: no WAL beside it, so each damage below is the whole story.
  const db = openDatabase(join(work, 'good', STATE_FILE));
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('PRAGMA journal_mode = DELETE');
  db.close();
  good = join(work, 'good', STATE_FILE);
  expect(statSync(good).size).toBeGreaterThan(100_000);
});

/** A state folder holding a copy of the good state, damaged by `damage`. */
function damaged(name: string, damage: (file: string) => void): string {
  const dir = join(work, name);
  mkdirSync(dir);
  copyFileSync(good, join(dir, STATE_FILE));
  damage(join(dir, STATE_FILE));
  return dir;
}

const overwrite = (file: string, at: number, bytes: Buffer) => {
  const fd = openSync(file, 'r+');
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
};

const CASES: Record<string, { damage: (file: string) => void; says: string; fix: string }> = {
  'truncated to half': {
    damage: (f) => truncateSync(f, Math.floor(statSync(f).size / 2)),
    says: 'is damaged (SQLITE_CORRUPT)',
    fix: 'mv ',
  },
  'pages overwritten in the middle': {
    damage: (f) => overwrite(f, Math.floor(statSync(f).size / 2), Buffer.alloc(20_000, 0xff)),
    says: 'is damaged',
    fix: 'restore it from a backup',
  },
  'not a database': {
    damage: (f) => writeFileSync(f, Buffer.from('this is a text file, not a collect state\n'.repeat(200))),
    says: 'is not a collect state',
    fix: 'mv ',
  },
  'written by a newer collect': {
    damage: (f) => {
      const db = openDatabase(f);
      db.exec('PRAGMA user_version = 99');
      db.close();
    },
    says: 'was written by a newer collect (schema 99)',
    fix: 'upgrade collect',
  },
  'a table missing': {
    damage: (f) => {
      const db = openDatabase(f);
      db.exec('DROP TABLE journal');
      db.close();
    },
    says: 'cannot be used (SQLITE_ERROR: no such table: journal)',
    fix: 'another version of collect',
  },
  'emptied of its pages but for the header': {
    damage: (f) => writeFileSync(f, readFileSync(f).subarray(0, 4096)),
    says: 'is damaged',
    fix: 'mv ',
  },
};

describe('a damaged state', () => {
  for (const [name, { damage, says, fix }] of Object.entries(CASES)) {
    it(`${name}: exit 2, the file named, and what to do`, async () => {
      const dir = damaged(name.replace(/\W+/g, '-'), damage);
      const { code, stdout, stderr } = await runCli([
        'status',
        input,
        '--dry-run',
        '--state',
        dir,
        '--format',
        'json',
      ]);
      expect(stderr).not.toMatch(/\n\s+at |internal error|SqliteError/);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(join(dir, STATE_FILE));
      expect(stderr).toContain(says);
      expect(stderr).toContain(`fix: `);
      expect(stderr).toContain(fix);
    });
  }

  // Issue 13: collect never leaves a 0-byte state (it builds a new one aside), so one is a damaged state, not
  // a fresh one.
  it('an empty file where the state should be: exit 2, the file named, and what to do', async () => {
    const dir = join(work, 'empty');
    mkdirSync(dir);
    writeFileSync(join(dir, STATE_FILE), '');
    const { code, stderr } = await runCli(['status', input, '--dry-run', '--state', dir, '--format', 'json']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(dir, STATE_FILE)} is an empty file (0 bytes)`);
    expect(stderr).toContain('mv ');
  });
});

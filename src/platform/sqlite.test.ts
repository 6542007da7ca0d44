import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from './sqlite.js';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** The folder of the better-sqlite3 that sqlite.ts loaded, for a child process to load the same. */
function loadedPackage(): string {
  const entry = Object.values(require.cache).find((m) => m?.exports === Database);
  if (!entry) throw new Error('better-sqlite3 is not in the require cache');
  return dirname(dirname(entry.filename));
}

// Statements left to the garbage collector while timers run: better-sqlite3 12 aborted Node 24.19+
// here (`Assertion failed: (env) != nullptr`, exit 134) within its first few thousand.
const collectStatements = `
const Database = require(process.argv[1]);
const db = new Database(':memory:');
let n = 0;
const timer = setInterval(() => {
  for (let i = 0; i < 2000; i++) db.prepare('select ' + n++).get();
  const garbage = [];
  for (let i = 0; i < 20000; i++) garbage.push({ i, s: 'x'.repeat(50) });
  if (n >= 50000) { clearInterval(timer); console.log('prepared', n); }
}, 1);`;

describe('sqlite', () => {
  it('loads better-sqlite3 13 on Node 22 and later, 12 on Node 20', () => {
    const { version } = require(`${loadedPackage()}/package.json`) as { version: string };
    expect(version.split('.')[0]).toBe(nodeMajor >= 22 ? '13' : '12');
    const db = new Database(':memory:');
    expect(db.prepare('select 1 as x').get()).toEqual({ x: 1 });
    db.close();
  });

  it('survives statements collected by the garbage collector', () => {
    const child = spawnSync(process.execPath, ['-e', collectStatements, loadedPackage()], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: 'prepared 50000\n' });
  });
});

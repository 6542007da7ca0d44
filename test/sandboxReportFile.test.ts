/** `collect sandbox --report FILE` keeps the output-file rules of --rejects (issue 39: M4). */
import { spawn } from 'node:child_process';
import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { jobEnv } from './helpers/scratchProject.js';
import { tempDir } from './helpers/tempDir.js';

vi.setConfig({ testTimeout: 60_000 });

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');

/** A session whose command ends at once. */
function session(report: string, cwd: string) {
  const args = ['sandbox', '--port', '0', '--report', report, '--', process.execPath, '-e', ''];
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: jobEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

describe('collect sandbox --report FILE', () => {
  it('refuses a file collect did not write, leaving it as it was (exit 2)', async () => {
    const dir = tempDir('collect-sbf-');
    writeFileSync(join(dir, 'notes.xml'), 'my notes\n');
    const result = await session('notes.xml', dir);
    expect(result.code).toBe(2);
    expect(result.output).toContain('--report notes.xml exists and is not a report collect wrote');
    expect(readFileSync(join(dir, 'notes.xml'), 'utf8')).toBe('my notes\n');
  });

  it('never writes through a symbolic link (exit 2), even to a report of its own', async () => {
    const dir = tempDir('collect-sbf-');
    writeFileSync(join(dir, 'elsewhere.json'), '');
    symlinkSync(join(dir, 'elsewhere.json'), join(dir, 'report.json'));
    const result = await session('report.json', dir);
    expect(result.code).toBe(2);
    expect(result.output).toContain(
      '--report report.json is a symbolic link; collect never writes through one',
    );
    expect(lstatSync(join(dir, 'report.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'elsewhere.json'), 'utf8')).toBe('');
  });

  it("replaces an earlier session's report, readable by its owner only (0600)", async () => {
    const dir = tempDir('collect-sbf-');
    expect((await session('report.xml', dir)).code).toBe(0);
    const first = readFileSync(join(dir, 'report.xml'), 'utf8');
    expect(first).toContain('<testsuites name="collect sandbox"');
    expect(statSync(join(dir, 'report.xml')).mode & 0o777).toBe(0o600);
    expect((await session('report.xml', dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toBe(first);
  });
});

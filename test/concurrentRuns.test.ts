import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tempDir.js';

/** A process that takes, uses and gives back its scratch folder many times, as a run does once. */
const SCRIPT = `
import { writeFileSync } from 'node:fs';
import { RunScratch } from ${JSON.stringify(resolve('dist/state/runScratch.js'))};
for (let i = 0; i < 300; i++) {
  const scratch = RunScratch.inTemp(process.argv[1]);
  writeFileSync(scratch.dir() + '/index', 'x');
  scratch.close();
}
`;

function runScratches(tmp: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, tmp]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('runs at the same time on one machine', () => {
  // Two dry runs in parallel CI jobs share the user's temporary folder: one removed it, empty, between
  // the other's making it and using it, and the other ended with an internal error (exit 70).
  it("share the user's temporary folder without failing, and leave it clean", async () => {
    const tmp = tempDir('collect-concurrent-');
    const results = await Promise.all(Array.from({ length: 6 }, () => runScratches(tmp)));
    expect(results.map((result) => result.stderr)).toEqual(Array(6).fill(''));
    expect(results.map((result) => result.code)).toEqual(Array(6).fill(0));
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tempDir.js';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

/** Runs the built CLI; its exit code and stderr. */
async function collect(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const done = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, COLLECT_API_KEY: 'k' },
    });
    return { code: 0, stderr: done.stderr };
  } catch (failure) {
    const { code, stderr } = failure as { code: number; stderr: string };
    return { code, stderr };
  }
}

const inputs = {
  order: ['id,created_at', 'O-1,2024-01-01T00:00:00Z', 'O-2,20"24-01-01', 'O-3,x', 'O-4,x', 'O-5,x'],
  chargebacks: [
    'acquirer_id,order_id,network,reason_code,amount,currency,received_at,arn',
    'TX-1,,visa,10.4,1,BRL,2024-04-02,',
    'TX-2,,vi"sa,10.4,1,BRL,2024-04-02,',
    'TX-3,,visa,10.4,1,BRL,2024-04-02,',
    'TX-4,,visa,10.4,1,BRL,2024-04-02,',
    'TX-5,,visa,10.4,1,BRL,2024-04-02,',
  ],
};

describe('a stray quote mid-file stops the run with exit 2, saying where and how much was not read', () => {
  for (const [command, lines] of Object.entries(inputs)) {
    it(command, async () => {
      const file = join(tempDir('collect-quote-'), 'in.csv');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const { code, stderr } = await collect([command, file, '--dry-run', '--no-state']);
      expect(code).toBe(2);
      expect(stderr).toContain(`${file}:3:`);
      expect(stderr).toContain('3 lines after it not read');
      expect(stderr).toContain('fix the quote on that line');
    });
  }
});

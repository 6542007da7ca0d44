import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tempDir.js';

const main = resolve('dist/cli/main.js');
const fixture = (path: string) => resolve('fixtures', path);

/** The built binary run in `cwd`, as a user or a CI job would, with no COLLECT_* variable set. */
function collect(cwd: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [main, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return {
    code: result.status,
    report: result.stdout.startsWith('{') ? JSON.parse(result.stdout) : undefined,
    stderr: result.stderr,
  };
}

const verdict = (run: ReturnType<typeof collect>) => ({
  code: run.code,
  summary: run.report?.summary,
  issues: run.report?.issues,
});

describe('a dry run is a function of its inputs', () => {
  it(
    'gives the same report in a fresh folder and after unrelated dry runs in the same folder, and ' +
      'writes no state',
    () => {
      const fresh = tempDir('collect-fresh-');
      const used = tempDir('collect-used-');
      const fraud = ['fraud', fixture('history/fraud.ndjson'), '--dry-run', '--format', 'json'];
      const alone = collect(fresh, fraud);
      expect(alone.code, alone.stderr).not.toBeNull();
      // An unrelated dry run of the orders first, in the same folder: it must not change the fraud file's verdict.
      collect(used, ['order', fixture('history/order.csv'), '--dry-run', '--format', 'json']);
      expect(verdict(collect(used, fraud))).toEqual(verdict(alone));
      expect(existsSync(join(fresh, '.collect'))).toBe(false);
      expect(existsSync(join(used, '.collect'))).toBe(false);
    },
  );

  it('reads and writes a state only when pointed at one with --state', () => {
    const cwd = tempDir('collect-state-');
    // A mark for an order of the history, and one for an order nobody created.
    writeFileSync(
      join(cwd, 'fraud.ndjson'),
      ['ORD-1001', 'ORD-9999']
        .map((id) =>
          JSON.stringify({ order_id: id, fraud_signal_type: 'chargeback', fraud_comment: 'acquirer report' }),
        )
        .join('\n'),
    );
    const fraud = ['fraud', 'fraud.ndjson', '--dry-run', '--format', 'json'];
    const alone = collect(cwd, fraud);
    collect(cwd, [
      'order',
      fixture('history/order.csv'),
      '--dry-run',
      '--format',
      'json',
      '--state',
      '.collect',
    ]);
    expect(existsSync(join(cwd, '.collect'))).toBe(true);
    // Pointed at the state that knows the orders, the fraud marks are judged against them.
    const informed = collect(cwd, [...fraud, '--state', '.collect']);
    expect(alone.report.summary).toMatchObject({ records: 2, invalid: 0 });
    expect(informed.report.summary).toMatchObject({ records: 2, invalid: 1 });
    expect(verdict(collect(cwd, [...fraud], { COLLECT_STATE: '.collect' }))).toEqual(verdict(informed));
    // Without a pointer, the state beside it is not read.
    expect(verdict(collect(cwd, fraud))).toEqual(verdict(alone));
  });
});

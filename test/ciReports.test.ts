/**
 * Every command that writes a report for CI goes through one place (src/compose/ciOutputs.ts,
 * src/report/ciLimits.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const cb = 'fixtures/chargebacks';
const commands: [string, string[]][] = [
  ...['order', 'status', 'fraud', 'payment', 'delivery'].map((name): [string, string[]] => [
    name,
    [name, `fixtures/${name}/invalid.ndjson`, '--dry-run'],
  ]),
  ['backfill', ['backfill', 'fixtures/history', '--dry-run']],
  [
    'chargebacks',
    [
      'chargebacks',
      `${cb}/report.csv`,
      '--map',
      `${cb}/acquirer.yaml`,
      '--orders',
      `${cb}/orders.ndjson`,
      '--dry-run',
    ],
  ],
  [
    'sandbox',
    [
      'sandbox',
      '--port',
      '0',
      '--report',
      'REPORT',
      '--report-format',
      'github',
      '--',
      process.execPath,
      '-e',
      '',
    ],
  ],
];

describe('--format github in every command', () => {
  for (const [name, argv] of commands) {
    it(`${name}: appends a job summary to GITHUB_STEP_SUMMARY and annotates at most 10 of each kind`, async () => {
      const dir = tempDir('collect-ci-');
      const summary = join(dir, 'summary.md');
      writeFileSync(summary, 'earlier step\n');
      const report = join(dir, 'report.txt');
      const args = argv.map((arg) => (arg === 'REPORT' ? report : arg));
      const result = await runCli(name === 'sandbox' ? args : [...args, '--format', 'github'], {
        env: { GITHUB_STEP_SUMMARY: summary },
      });
      expect(result.stderr).not.toMatch(/internal error/);
      const annotations = name === 'sandbox' ? readFileSync(report, 'utf8') : result.stdout;
      expect(
        annotations.split('\n').filter((line) => line.startsWith('::error ')).length,
      ).toBeLessThanOrEqual(10);
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toMatch(/^earlier step\n### collect: /);
      expect(markdown).toContain('| records | valid | invalid | errors | warnings |');
    });
  }
});

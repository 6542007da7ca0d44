import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './memoryIo.js';
import { tempDir } from './tempDir.js';

/** NDJSON text of records. */
export const nd = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');

export const orderRecord = (id: string, extra: object = {}) => ({
  id,
  creation_datetime: '2024-03-01T10:00:00Z',
  total_paid_value: 10,
  user: { id: 'U1' },
  ...extra,
});

/**
 * Runs `collect backfill DIR --dry-run` over files written to a fresh folder, with the given
 * state folder; returns the exit code, the report and its issues as `code file#index` lines.
 */
export async function backfill(files: Record<string, string>, state: string, extra: string[] = []) {
  const dir = tempDir('collect-history-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const result = await runCli(['backfill', dir, '--dry-run', '--format', 'json', '--state', state, ...extra]);
  if (result.code === 2) throw new Error(result.stderr);
  const report = JSON.parse(result.stdout) as {
    summary: Record<string, number>;
    notes: { code: string; message: string }[];
    issues: { code: string; file: string; index: number; severity: string }[];
  };
  return {
    code: result.code,
    report,
    issues: report.issues.map((issue) => `${issue.code} ${issue.file.slice(dir.length + 1)}#${issue.index}`),
    notes: report.notes.map((note) => note.code),
  };
}

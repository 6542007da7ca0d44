import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/**
 * The same two orders as a UTF-8 "," file and as a Windows-1252 ";" file with CRLF lines (as Excel saves it
 * in Brazil).
 */
function exports() {
  const dir = tempDir('collect-dialect-');
  const rows = [
    ['id', 'total_paid_value', 'user.name', 'custom_data.note'],
    ['A1', '10.5', 'José Gonçalves', 'a, b'],
    ['A2', '3', 'Ana', 'x; "y"'],
  ];
  const cell = (text: string, delimiter: string) =>
    text.includes(delimiter) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
  const comma = join(dir, 'comma.csv');
  const excel = join(dir, 'excel.csv');
  writeFileSync(comma, rows.map((row) => row.map((c) => cell(c, ',')).join(',')).join('\n') + '\n');
  writeFileSync(
    excel,
    Buffer.from(rows.map((row) => row.map((c) => cell(c, ';')).join(';')).join('\r\n') + '\r\n', 'latin1'),
  );
  return { comma, excel };
}

describe('--delimiter and --encoding for CSV read without a mapping', () => {
  it('reads a ";"-separated Windows-1252 file as the same records as its "," UTF-8 twin', async () => {
    const { comma, excel } = exports();
    const plain = await runCli(['order', comma, '--dry-run', '--format', 'json']);
    const dialect = await runCli([
      'order',
      excel,
      '--dry-run',
      '--format',
      'json',
      '--delimiter',
      ';',
      '--encoding',
      'windows-1252',
    ]);
    expect(dialect.stderr).toBe('');
    expect(dialect.code).toBe(plain.code);
    const issues = (stdout: string) =>
      JSON.parse(stdout).issues.map((issue: { file: string }) => ({ ...issue, file: undefined }));
    expect(issues(dialect.stdout)).toEqual(issues(plain.stdout));
    expect(JSON.parse(dialect.stdout).summary).toMatchObject({ records: 2, valid: 2, errors: 0 });
  });

  it('refuses a ";" file read as ","-separated, and the flags beside --map: exit 2', async () => {
    const { excel } = exports();
    const wrong = await runCli(['order', excel, '--dry-run', '--encoding', 'windows-1252']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      `${excel}: its header holds ";" and no ",": it looks ";"-separated, but is read as ","-separated`,
    );
    expect(wrong.stderr).toContain('--delimiter ";"');
    const mapped = await runCli(['order', excel, '--dry-run', '--map', 'x.yaml', '--delimiter', ';']);
    expect(mapped.code).toBe(2);
    expect(mapped.stderr).toContain('--delimiter and --encoding are for CSV read without a mapping');
  });
});

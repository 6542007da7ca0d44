import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/** The rows of a rejects file: its lines but a CSV's header. */
function rejectedRows(path: string, csv: boolean): number {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return csv ? lines.length - 1 : lines.length;
}

const INVALID_CSV = 'id,creation_datetime,total_paid_value,user.id\nORD-1,2024-03-01T10:00:00Z,"10,50",C-1\n';
const INVALID_NDJSON = '{"id":"ORD-1","creation_datetime":"2024-03-01T10:00:00Z","total_paid_value":"x"}\n';
const MAPPING = `version: 1
records:
  - endpoint: order
    from: export.csv
    fields:
      id: Name
      creation_datetime: { column: Created, datetime: iso }
      total_paid_value: { column: Total, number: decimal-point }
      user.id: Email
`;

describe('--rejects writes every invalid record the report counts', () => {
  const cases = [
    {
      name: 'CSV',
      file: 'orders.csv',
      text: INVALID_CSV.split('\n')[0]! + '\n' + INVALID_CSV.split('\n')[1]!.concat('\n').repeat(3),
    },
    { name: 'NDJSON', file: 'orders.ndjson', text: INVALID_NDJSON.repeat(3) },
    {
      name: 'a mapped CSV',
      file: 'export.csv',
      text: 'Name,Created,Total,Email\n' + 'ORD-1,2024-03-01T10:00:00Z,1x,\n'.repeat(3),
      map: MAPPING,
    },
  ];
  for (const { name, file, text, map } of cases) {
    it(`${name}: three identical invalid records, three rows`, async () => {
      const dir = tempDir('collect-rejects-count-');
      writeFileSync(join(dir, file), text);
      if (map) writeFileSync(join(dir, 'mapping.yaml'), map);
      const rejects = join(dir, `rejects-${file}`);
      const { code, stdout } = await runCli([
        'order',
        join(dir, file),
        '--dry-run',
        '--format',
        'json',
        '--rejects',
        rejects,
        ...(map ? ['--map', join(dir, 'mapping.yaml')] : []),
      ]);
      expect(code).toBe(1);
      const invalid = (JSON.parse(stdout) as { summary: { invalid: number } }).summary.invalid;
      expect(invalid).toBe(3);
      expect(rejectedRows(rejects, file.endsWith('.csv'))).toBe(invalid);
    });
  }
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

// Monthly files read only through globs: the entry's, a list's and a lookup's.
const MAPPING = `version: 1
records:
  - endpoint: order
    from: 'orders_*.csv'
    fields:
      id: order_id
      evaluate: { value: false }
      currency: { value: BRL }
      creation_datetime: { column: created, datetime: iso }
      user.id: customer_id
      user.name: { lookup: { from: 'customers_*.csv', key: customer_id, column: name } }
    lists:
      items:
        from: 'items_*.csv'
        key: order_id
        fields:
          quantity: quantity
          unit_price: { column: price, number: decimal-point }
`;

function folder(stray?: string): string {
  const dir = tempDir('collect-unread-globs-');
  for (const month of ['2024-01', '2024-02']) {
    const n = month.slice(-1);
    writeFileSync(
      join(dir, `orders_${month}.csv`),
      `order_id,created,customer_id\nO${n},2024-0${n}-01T10:00:00Z,C${n}\n`,
    );
    writeFileSync(join(dir, `items_${month}.csv`), `order_id,quantity,price\nO${n},1,9.90\n`);
    writeFileSync(join(dir, `customers_${month}.csv`), `customer_id,name\nC${n},Ana ${n}\n`);
  }
  if (stray) writeFileSync(join(dir, stray), 'a,b\n1,2\n');
  writeFileSync(join(dir, 'mapping.yaml'), MAPPING);
  return dir;
}

async function notes(dir: string) {
  const run = await runCli([
    'backfill',
    dir,
    '--map',
    join(dir, 'mapping.yaml'),
    '--dry-run',
    '--format',
    'json',
  ]);
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout);
  expect(report.summary).toMatchObject({ records: 2, valid: 2 });
  return (report.notes as { code: string; message: string }[]).filter((note) => note.code === 'unread-files');
}

describe('the unread-files note and globs', () => {
  it("counts the files a list's, a lookup's and an entry's glob read as read", async () => {
    expect(await notes(folder())).toEqual([]);
  });

  it('names exactly the one stray file beside them', async () => {
    const found = await notes(folder('refunds_2024-01.csv'));
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('the file "refunds_2024-01.csv" of');
    expect(found[0]!.message).not.toMatch(/"(orders|items|customers)_2024/);
  });
});

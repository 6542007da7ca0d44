import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { mapFolderInputs, type MappedInputs } from '../compose/columnMap.js';
import { parseCsvPiece } from './csvPiece.js';
import { compileRecipe, createMappedStage } from './mappedStage.js';

const FIXTURE = 'fixtures/marketplace';
let mapped: MappedInputs | undefined;
afterEach(() => mapped?.close());

/** The fixture's orders file, parsed: its rows after the header, and their lines. */
function ordersRows(): { rows: string[][]; lines: number[] } {
  const { rows, lines } = parseCsvPiece(readFileSync(`${FIXTURE}/olist_orders_dataset.csv`), {
    maxRecordSize: 0,
    delimiter: '\n',
    first: true,
  });
  return { rows: rows.slice(1), lines: lines.slice(1) };
}

describe('a mapped file staged where its pieces are parsed', () => {
  it(
    'gives each kept row its record: order ids, lines, facts and hashes; a row its entry leaves out ' +
      'gives none',
    async () => {
      mapped = await mapFolderInputs(`${FIXTURE}/mapping.yaml`, FIXTURE);
      const status = mapped.inputs.find((input) => input.resource.name === 'status')!.map!.mapping!;
      const stage = createMappedStage({
        mapped: status.recipe!,
        endpoint: 'status',
        now: Date.now(),
        digest: true,
        width: 8,
      });
      const { rows, lines } = ordersRows();
      const staged = stage(rows, lines);
      // The sixth order is still "created": the status entry's `when:` leaves it out.
      expect(staged.rowCount).toBe(6);
      expect(staged.positions).toEqual([0, 1, 2, 3, 4]);
      expect(staged.lines).toEqual([2, 3, 4, 5, 6]);
      expect(staged.checked![0]!.orderId).toBe('e481f51cbdc54678b7cc49136f2d6af7');
      expect(staged.checked!.flatMap((checked) => checked.issues)).toEqual([]);
      expect(staged.checked![0]!.facts).toMatchObject({
        kind: 'status',
        orderId: 'e481f51cbdc54678b7cc49136f2d6af7',
      });
      expect(staged.checked!.every(({ hash }) => /^[0-9a-f]{40,}$/.test(hash))).toBe(true);
    },
  );

  it('compiles the same entry from its recipe as the reading thread did', async () => {
    mapped = await mapFolderInputs(`${FIXTURE}/mapping.yaml`, FIXTURE);
    for (const input of mapped.inputs) {
      const { entry, recipe } = input.map!.mapping!;
      const again = compileRecipe(recipe!);
      expect([again.endpoint, again.file, [...again.columnsRead]]).toEqual([
        entry.endpoint,
        entry.file,
        [...entry.columnsRead],
      ]);
    }
  });
});

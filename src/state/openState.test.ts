import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchOf } from './openState.js';
import { tempDir } from '../../test/helpers/tempDir.js';

describe('scratchOf: the folder of files that outlive a run, chosen by its state', () => {
  const temp = tempDir('collect-temp-');
  const folder = tempDir('collect-state-');
  const where = (spec: string | null, readOnly: boolean) => {
    const scratch = scratchOf(spec, readOnly, temp);
    const dir = scratch.dir();
    scratch.close();
    return dir;
  };

  it('is beside a state folder the run writes (its next run sweeps it)', () => {
    expect(where(folder, false).startsWith(join(folder, 'tmp'))).toBe(true);
  });

  it('is in the temporary folder for no state, a read-only run and a PostgreSQL state', () => {
    for (const [spec, readOnly] of [
      [null, false],
      [folder, true],
      ['postgres://user@localhost/collect', false],
    ] as const)
      expect(where(spec, readOnly).startsWith(temp)).toBe(true);
  });
});

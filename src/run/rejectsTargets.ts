import { basename, dirname, join } from 'node:path';
import { inputSpec, type InputSpec } from '../decode/openInput.js';
import type { RunInput } from './checkOptions.js';

/** Where a run's rejects go: one file per name in `specs`, in a folder when `folder` (else PATH is the one file). */
export interface RejectsTargets {
  specs: InputSpec[];
  folder: boolean;
}

/**
 * The files a run's rejects are written after: its inputs, and the files a mapped input's lists
 * and lookups read (a rejected order's payments and items go back to files named as theirs, so the
 * same mapping reads the folder back). A mapped record with lists always gets a folder: its rows
 * must keep their source's name for the mapping's from: to find them again.
 */
export function rejectsTargets(inputs: readonly RunInput[]): RejectsTargets {
  const specs = inputs.map((input) => input.spec);
  const named = new Set(specs.map((spec) => basename(spec.name)));
  let lists = false;
  for (const { spec, map } of inputs) {
    const entry = map?.mapping?.entry;
    if (!entry) continue;
    if (entry.row.lists.length > 0) lists = true;
    for (const file of entry.reads.keys()) {
      if (named.has(basename(file))) continue;
      named.add(basename(file));
      // In the file's own dialect, so the same mapping reads its rejects back.
      const csv = map.mapping?.dialects?.get(file);
      specs.push({ ...inputSpec(join(dirname(spec.name), file), 'csv'), ...(csv ? { csv } : {}) });
    }
  }
  return { specs, folder: lists || new Set(specs.map((spec) => spec.name)).size > 1 };
}

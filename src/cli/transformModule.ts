import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../core/errors.js';
import type { RecordTransform } from '../readers/transformRecords.js';
import type { RunInput } from '../run/checkRecords.js';

/** Loads `--transform MODULE.js`: its default export must be a function (record, location) => record | record[] | null. */
export async function loadTransform(path: string): Promise<RecordTransform> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (cause) {
    throw new UsageError(`--transform ${path}: cannot be loaded (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)})`, 'give a JavaScript module (ESM) whose default export is a function');
  }
  if (typeof module.default !== 'function') throw new UsageError(`--transform ${path}: its default export is not a function`, 'export default (record, location) => ({ ...record }) // or null to drop it');
  return module.default as RecordTransform;
}

/** The inputs with the transform applied after reading (and mapping). */
export async function withTransform(inputs: RunInput[], path: string | undefined): Promise<RunInput[]> {
  if (path === undefined) return inputs;
  const transform = await loadTransform(path);
  return inputs.map((input) => ({ ...input, map: { ...input.map, transform } }));
}

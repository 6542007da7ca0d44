import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../core/errors.js';
import { importFile } from '../platform/singleBinary.js';
import { BuiltinSnapshot } from '../decode/builtinGuard.js';
import type { RecordTransform, TransformHook } from '../decode/transformRecords.js';
import type { RunInput } from '../run/checkRecords.js';

/** How long one record's call of a transform may take to settle, unless --transform-timeout says otherwise. */
export const TRANSFORM_TIMEOUT_MS = 10_000;

/**
 * Loads `--transform MODULE.js`: its default export must be a function (record, location) =>
 * record | record[] | null. The built-ins are taken before it loads, so a module that changes
 * them, when loaded or on any record, is caught (readers/builtinGuard.ts).
 */
export async function loadTransform(path: string, timeoutMs = TRANSFORM_TIMEOUT_MS): Promise<TransformHook> {
  const builtins = BuiltinSnapshot.take();
  let module: { default?: unknown };
  try {
    module = (await importFile(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (cause) {
    builtins.restoreChanges();
    throw new UsageError(
      `--transform ${path}: cannot be loaded (` +
        `${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)})`,
      'give a JavaScript module (ESM) whose default export is a function',
    );
  }
  const changed = builtins.restoreChanges();
  if (changed !== undefined)
    throw new UsageError(
      `--transform ${path} changed JavaScript's built-in objects when loaded (${changed})`,
      'a transform must leave Object.prototype and the other built-ins alone',
    );
  if (typeof module.default !== 'function')
    throw new UsageError(
      `--transform ${path}: its default export is not a function`,
      'export default (record, location) => ({ ...record }) // or null to drop it',
    );
  return { module: path, run: module.default as RecordTransform, timeoutMs, builtins };
}

/** The inputs with the transform applied after reading (and mapping). */
export async function withTransform(
  inputs: RunInput[],
  path: string | undefined,
  timeoutMs?: number,
): Promise<RunInput[]> {
  if (path === undefined) return inputs;
  const transform = await loadTransform(path, timeoutMs);
  return inputs.map((input) => ({ ...input, map: { ...input.map, transform } }));
}

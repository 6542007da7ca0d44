import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { extensionPattern } from '../decode/inputFormats.js';
import { inputSpec } from '../decode/openInput.js';
import { registry } from '../resources/registry.js';
import type { RunInput } from '../run/checkOptions.js';

const endpointNames = registry.names;
const FILE_NAME = new RegExp(`^(${endpointNames.join('|')})[^/]*\\.(${extensionPattern})(\\.gz)?$`, 'i');

/** Whether a backfill folder's file of this name is read: it is named after its endpoint, in a format collect reads. */
export const isBackfillFile = (name: string): boolean => FILE_NAME.test(name);

/** The endpoint files of a backfill folder: named after their endpoint, creations first. */
export async function folderInputs(dir: string): Promise<RunInput[]> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory())
      throw new UsageError(
        `${dir} is not a folder`,
        'name a folder, or use --order FILE, --status FILE, ...',
      );
    names = await readdir(dir);
  } catch (cause) {
    if (cause instanceof UsageError) throw cause;
    throw new UsageError(
      `${dir}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'check the path of the folder',
    );
  }
  const inputs = names.sort().flatMap((name) => {
    const match = FILE_NAME.exec(name);
    const resource = match ? registry.get(match[1]!.toLowerCase()) : undefined;
    return resource ? [{ resource, spec: inputSpec(join(dir, name)) }] : [];
  });
  if (inputs.length === 0) {
    throw new UsageError(
      `${dir} holds no endpoint files`,
      `name them after their endpoint: ${endpointNames.map((e) => `${e}*.csv`).join(', ')} (.json, ` +
        `.ndjson and .gz too)`,
    );
  }
  return inputs.sort(
    (a, b) => endpointNames.indexOf(a.resource.name) - endpointNames.indexOf(b.resource.name),
  );
}

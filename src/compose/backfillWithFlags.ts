import { UsageError } from '../core/errors.js';
import type { ExitCode } from '../core/exitCodes.js';
import { inputSpec } from '../decode/openInput.js';
import { registry } from '../resources/registry.js';
import type { CliIo } from '../terminal/io.js';
import { folderInputs, isBackfillFile } from './backfillFolder.js';
import { csvDialectOf, withCsvDialect, type CsvDialectFlags } from './csvDialectFlags.js';
import { runWithFlags, type RunFlags } from './runWithFlags.js';
import { withTransform } from './transformModule.js';

/** The flags of `collect backfill`, as parsed (cli/commands/backfillCommand.ts): a list of files per endpoint. */
export type BackfillFlags = RunFlags & Partial<Record<string, string[]>> & { map?: string } & CsvDialectFlags;

/**
 * `collect backfill DIR | --order F...`: a folder's endpoint files (through `--map` when given), or
 * the files named per endpoint, checked together in one run, creations first.
 */
export async function backfillWithFlags(
  dir: string | undefined,
  flags: BackfillFlags,
  io: CliIo,
): Promise<ExitCode> {
  const named = registry.all.flatMap((resource) =>
    (flags[resource.name] ?? []).map((file) => ({ resource, spec: inputSpec(file) })),
  );
  const dialect = csvDialectOf(flags);
  if (dir !== undefined && named.length > 0)
    throw new UsageError('give either a folder or --order/--status/... files, not both');
  if (flags.map !== undefined) {
    if (dir === undefined)
      throw new UsageError(
        'backfill --map reads a folder: the mapping names its files',
        'collect backfill exports/ --map mapping.yaml --dry-run',
      );
    const { mapFolderInputs } = await import('./columnMap.js');
    const mapped = await mapFolderInputs(flags.map, dir, flags.strict === true);
    try {
      const reads = {
        files: [flags.map, ...mapped.reads],
        folders: mapped.readsName ? [{ dir, reads: mapped.readsName }] : [],
      };
      return await runWithFlags(
        await withTransform(mapped.inputs, flags.transform, flags.transformTimeout),
        flags,
        io,
        { reads },
      );
    } finally {
      mapped.close();
    }
  }
  const inputs = await withCsvDialect(dir !== undefined ? await folderInputs(dir) : named, dialect);
  if (inputs.length === 0)
    throw new UsageError(
      'nothing to backfill',
      'name a folder, or files with --order FILE, --status FILE, ...',
    );
  const reads = dir === undefined ? {} : { folders: [{ dir, reads: isBackfillFile }] };
  return runWithFlags(await withTransform(inputs, flags.transform, flags.transformTimeout), flags, io, {
    reads,
  });
}

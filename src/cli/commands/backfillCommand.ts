import { readdir, stat } from 'node:fs/promises';
import {
  addCsvDialectOptions,
  csvDialectOf,
  withCsvDialect,
  type CsvDialectFlags,
} from '../csvDialectFlags.js';
import { join } from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { exitCodesHelp, runExits } from '../../core/exitCodes.js';
import { inputSpec } from '../../decode/openInput.js';
import { extensionPattern } from '../../decode/inputFormats.js';
import { registry } from '../../resources/registry.js';
import type { RunInput } from '../../run/checkRecords.js';
import type { CliIo } from '../../terminal/io.js';
import { addRunOptions } from '../runOptions.js';
import { runWithFlags, type RunFlags } from '../../compose/runWithFlags.js';
import { withTransform } from '../transformModule.js';

type BackfillFlags = RunFlags & Partial<Record<string, string[]>> & { map?: string } & CsvDialectFlags;

const endpointNames = registry.names;
const FILE_NAME = new RegExp(`^(${endpointNames.join('|')})[^/]*\\.(${extensionPattern})(\\.gz)?$`, 'i');

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
      `name them after their endpoint: ${endpointNames.map((e) => `${e}*.csv`).join(', ')} (.json, .ndjson and .gz too)`,
    );
  }
  return inputs.sort(
    (a, b) => endpointNames.indexOf(a.resource.name) - endpointNames.indexOf(b.resource.name),
  );
}

const collectFiles = (value: string, previous: string[] = []) => [...previous, value];

/** `collect backfill [--order F]... [--status F]... | DIR`: a whole history, checked together. */
export function backfillCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('backfill')
    .description(
      'Checks every file of a history together: each record against its schema, then the flow\nrules across all files and earlier runs. Creations are taken first, then the updates.',
    )
    .argument(
      '[dir]',
      `a folder of files named after their endpoint (${endpointNames.map((e) => `${e}*.csv`).join(', ')}; .json, .ndjson, .gz too)`,
    );
  for (const name of endpointNames)
    command.option(`--${name} <file>`, `a file of ${name} records (repeatable)`, collectFiles);
  command.option(
    '--map <file>',
    'a mapping file (YAML or JSON): which export files feed which endpoint, and how (with DIR)',
  );
  addCsvDialectOptions(command);
  return addRunOptions(command)
    .addHelpText(
      'after',
      `
Examples:
  $ collect backfill fixtures/history --dry-run
  $ collect backfill --order orders-2023.csv --order orders-2024.csv --status statuses.csv.gz --dry-run
  $ collect backfill exports/ --dry-run --format junit > backfill.xml
  $ collect backfill fixtures/marketplace --map fixtures/marketplace/mapping.yaml --dry-run

${exitCodesHelp(runExits)}`,
    )
    .action(async (dir: string | undefined, flags: BackfillFlags) => {
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
        const { mapFolderInputs } = await import('../../compose/columnMap.js');
        const mapped = await mapFolderInputs(flags.map, dir, flags.strict === true);
        try {
          const reads = {
            files: [flags.map, ...mapped.reads],
            folders: mapped.readsName ? [{ dir, reads: mapped.readsName }] : [],
          };
          setExit(
            await runWithFlags(
              await withTransform(mapped.inputs, flags.transform, flags.transformTimeout),
              flags,
              io,
              { reads },
            ),
          );
        } finally {
          mapped.close();
        }
        return;
      }
      const inputs = await withCsvDialect(dir !== undefined ? await folderInputs(dir) : named, dialect);
      if (inputs.length === 0)
        throw new UsageError(
          'nothing to backfill',
          'name a folder, or files with --order FILE, --status FILE, ...',
        );
      const reads =
        dir === undefined ? {} : { folders: [{ dir, reads: (name: string) => FILE_NAME.test(name) }] };
      setExit(
        await runWithFlags(await withTransform(inputs, flags.transform, flags.transformTimeout), flags, io, {
          reads,
        }),
      );
    });
}

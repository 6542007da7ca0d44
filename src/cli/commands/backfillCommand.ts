import { Command } from 'commander';
import { exitCodesHelp, runExits } from '../../core/exitCodes.js';
import { registry } from '../../resources/registry.js';
import { backfillWithFlags, type BackfillFlags } from '../../compose/backfillWithFlags.js';
import type { CliIo } from '../../terminal/io.js';
import { addCsvDialectOptions } from '../csvDialectOptions.js';
import { addRunOptions } from '../runOptions.js';

const endpointNames = registry.names;

const collectFiles = (value: string, previous: string[] = []) => [...previous, value];

/** `collect backfill [--order F]... [--status F]... | DIR`: a whole history, checked together. */
export function backfillCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('backfill')
    .description(
      'Checks every file of a history together: each record against its schema, then the flow\n' +
        'rules across all files and earlier runs. Creations are taken first, then the updates.',
    )
    .argument(
      '[dir]',
      `a folder of files named after their endpoint (` +
        `${endpointNames.map((e) => `${e}*.csv`).join(', ')}; .json, .ndjson, .gz too)`,
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
      setExit(await backfillWithFlags(dir, flags, io));
    });
}

import { Option, type Command } from 'commander';

/** `--delimiter` and `--encoding`: the dialect of CSV inputs read without a mapping (a mapping says it with csv:). */
export function addCsvDialectOptions(command: Command): Command {
  return command
    .option('--delimiter <char>', 'the cell delimiter of CSV inputs: , (default), ; or tab')
    .addOption(
      new Option('--encoding <name>', 'the encoding of CSV inputs (default utf-8)').choices([
        'utf-8',
        'windows-1252',
        'latin1',
      ]),
    );
}

import { Command } from 'commander';
import { exitCodesHelp } from '../../core/exitCodes.js';
import { csvLine } from '../../convert/csvLine.js';
import { flattenRecord } from '../../convert/flatten.js';
import { endpointNames } from '../../resources/registry.js';
import type { CliIo } from '../../terminal/io.js';
import { printExits, resourceNamed } from './schemaCommand.js';

/** `collect template ENDPOINT`: a CSV header line and one example row. */
export function templateCommand(io: CliIo): Command {
  return new Command('template')
    .argument('<endpoint>', endpointNames.join('|'))
    .addHelpText(
      'after',
      `\nExample:\n  $ collect template order > orders.csv\n\n${exitCodesHelp(printExits)}`,
    )
    .action((name: string) => {
      const resource = resourceNamed(name);
      const cells = flattenRecord(resource.schema, resource.example as Record<string, unknown>);
      io.stdout.write(
        `${csvLine(cells.map(([header]) => header))}\n${csvLine(cells.map(([, cell]) => cell))}\n`,
      );
    });
}

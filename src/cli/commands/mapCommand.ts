import { basename } from 'node:path';
import { Command, Option } from 'commander';
import { exitCodes, exitCodesHelp } from '../../core/exitCodes.js';
import { proposeMapping } from '../../mapping/proposeMapping.js';
import { endpointNames, registry } from '../../resources/registry.js';
import type { EndpointName } from '../../resources/resource.js';
import type { CliIo } from '../../terminal/io.js';
import { readExportSample } from '../readExportSample.js';

/** `collect map init FILE...`: a first mapping for an export, printed for the user to edit. */
export function mapCommand(io: CliIo): Command {
  const init = new Command('init')
    .summary('propose a first mapping file for an export, from its header and sample cells')
    .argument(
      '<files...>',
      "the export's CSV files (the first 200 rows of each are read; `,` `;` or tab, UTF-8 or Windows-1252, told apart)",
    )
    .addOption(
      new Option('--endpoint <endpoint>', 'the endpoint the files feed')
        .choices(endpointNames)
        .default('order'),
    )
    .option(
      '--zone <zone>',
      "the export's IANA time zone, written into the mapping (default: proposed from the files, else UTC)",
    )
    .addHelpText(
      'after',
      `
Example:
  $ collect map init exports/orders.csv --zone America/Sao_Paulo > mapping.yaml
  $ collect backfill exports/ --map mapping.yaml --dry-run

${exitCodesHelp([
  [exitCodes.ok, 'the mapping printed'],
  [exitCodes.usage, 'usage error: an unreadable export, an unknown endpoint or zone'],
])}`,
    )
    .action(async (files: string[], flags: { endpoint: EndpointName; zone?: string }) => {
      const samples = [];
      for (const file of files) samples.push({ file: basename(file), ...(await readExportSample(file)) });
      io.stdout.write(proposeMapping(samples, registry.get(flags.endpoint)!, flags.zone));
    });
  return new Command('map')
    .summary('work with mapping files (see docs/mapping.md)')
    .addHelpText(
      'after',
      `\n${exitCodesHelp([[exitCodes.usage, 'no subcommand or an unknown one: see collect map init --help']])}`,
    )
    .addCommand(init);
}

import { Command, Option } from 'commander';
import { exitCodesHelp, runExits } from '../../core/exitCodes.js';
import { inputFormatNames } from '../../decode/inputFormats.js';
import type { ByHand, Resource } from '../../resources/resource.js';
import { endpointWithFlags, type EndpointFlags } from '../../compose/endpointWithFlags.js';
import { recordByHand } from '../../compose/recordByHand.js';
import type { CliIo } from '../../terminal/io.js';
import { addCsvDialectOptions } from '../csvDialectOptions.js';
import { foldedChoices } from '../foldedChoices.js';
import { asksBeforeSending } from '../prompt.js';
import { addRunOptions } from '../runOptions.js';

function examples(resource: Resource): string {
  const { name } = resource;
  // The form by hand comes first, as in the usage lines and the options.
  const byHand = resource.byHand
    ? `  One record by hand (asks for confirmation on a terminal; --yes skips it):
  ${resource.byHand.example}

  Files or standard input:
`
    : '';
  return `
Examples:
${byHand}  $ collect ${name} ${name}.csv --dry-run                     # check a CSV export
  $ collect ${name} a.ndjson b.json.gz --dry-run --format json > report.json
  $ cat ${name}.ndjson | collect ${name} - --input-format ndjson --dry-run
  $ collect ${name} export.csv --map mapping.yaml --dry-run   # an export with its own columns
  $ collect ${name} ${name}.csv --dry-run --format github      # annotations in a GitHub Actions job

${exitCodesHelp(runExits)}`;
}

/** The form by hand comes first in the help: its usage line, then its options (and --yes) above the files' ones. */
function byHandOptions(command: Command, resource: Resource, byHand: ByHand, io: CliIo): void {
  command
    .usage(`${byHand.usage} [--yes]\n       collect ${resource.name} [options] [files...]`)
    .optionsGroup('One record by hand (asks for confirmation on a terminal; --yes skips it):');
  for (const option of byHand.options) {
    command.addOption(
      option.choices
        ? foldedChoices(new Option(option.flags, option.description), option.choices)
        : new Option(option.flags, option.description),
    );
  }
  const trigger = (flags: Readonly<Record<string, unknown>>) =>
    flags[byHand.trigger] !== undefined || flags.acquirerId !== undefined;
  asksBeforeSending(command, io, { what: `a ${byHand.noun}`, when: trigger });
  command.optionsGroup('Options:');
}

/** `collect order|status|fraud|payment|delivery [files...]`: one per resource of the registry. */
export function endpointCommand(resource: Resource, io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command(resource.name)
    .summary(resource.summary)
    .description(
      `${resource.method} ${resource.path}: ${resource.summary}.\nReads JSON, NDJSON or CSV ` +
        `(optionally .gz) files, or standard input, and checks every\nrecord against the schema and ` +
        `the flow rules (collect rules), with what earlier runs recorded.`,
    )
    .argument('[files...]', 'input files; - or nothing for standard input');
  const { byHand } = resource;
  if (byHand) byHandOptions(command, resource, byHand, io);
  command
    .addOption(
      new Option('--input-format <format>', 'input format, needed for standard input').choices(
        inputFormatNames,
      ),
    )
    .option(
      '--map <file>',
      'a mapping file (YAML or JSON) that turns an export into records: renames, dates, values, lists',
    );
  addCsvDialectOptions(command);
  return addRunOptions(command)
    .addHelpText('after', examples(resource))
    .action(async (files: string[], flags: EndpointFlags) => {
      if (byHand && (flags[byHand.trigger] !== undefined || flags.acquirerId !== undefined)) {
        setExit(await recordByHand(resource, byHand, files, flags, io));
        return;
      }
      setExit(await endpointWithFlags(resource, files, flags, io));
    });
}

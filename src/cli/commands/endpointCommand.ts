import { Command, Option } from 'commander';
import { UsageError } from '../../core/errors.js';
import { inputSpec } from '../../readers/openInput.js';
import type { InputFormat } from '../../readers/sourceRecord.js';
import { formatJson } from '../../report/formatJson.js';
import { formatPretty } from '../../report/formatPretty.js';
import { ReportBuilder, reportExitCode } from '../../report/report.js';
import type { Resource } from '../../resources/resource.js';
import { validateInputs } from '../../run/validateInputs.js';
import { colorFor } from '../color.js';
import { readColumnMap } from '../columnMap.js';
import type { CliIo } from '../io.js';
import { startProgress } from '../progress.js';

interface EndpointOptions {
  dryRun?: boolean;
  format: 'pretty' | 'json';
  inputFormat?: InputFormat;
  map?: string;
  strict?: boolean;
}

function examples(name: string): string {
  return `
Examples:
  $ collect ${name} ${name}s.csv --dry-run                 validate a CSV export
  $ collect ${name} a.ndjson b.json.gz --dry-run --format json > report.json
  $ cat ${name}s.ndjson | collect ${name} - --input-format ndjson --dry-run
  $ collect ${name} export.csv --map columns.json --dry-run   read differently named columns

Exit codes: 0 all valid, 1 some record invalid, 2 usage or unreadable input.`;
}

/** `collect order|status|fraud|payment|delivery [files...]`. */
export function endpointCommand(resource: Resource, io: CliIo, setExit: (code: number) => void): Command {
  return new Command(resource.name)
    .summary(resource.summary)
    .description(`${resource.method} ${resource.path}: ${resource.summary}.\nReads JSON, NDJSON or CSV (optionally .gz) files, or standard input.`)
    .argument('[files...]', 'input files; - or nothing for standard input')
    .option('--dry-run', 'validate and report; send nothing')
    .addOption(new Option('--format <format>', 'report format on standard output').choices(['pretty', 'json']).default('pretty'))
    .addOption(new Option('--input-format <format>', 'input format, needed for standard input').choices(['json', 'ndjson', 'csv']))
    .option('--map <file>', 'JSON object {"field.path": "source column"} to read CSV exports with other headers')
    .option('--strict', 'count warnings as errors')
    .addHelpText('after', examples(resource.name))
    .action(async (files: string[], options: EndpointOptions) => {
      if (!options.dryRun) {
        throw new UsageError('sending is not available in this version of collect', 'add --dry-run to validate the records');
      }
      const inputs = (files.length > 0 ? files : ['-']).map((name) => inputSpec(name, options.inputFormat));
      if (inputs.some((spec) => spec.name === '-') && io.stdin.isTTY === true) {
        throw new UsageError('no input: name the files to read, or pipe records into standard input', `e.g. collect ${resource.name} ${resource.name}s.csv --dry-run`);
      }
      const map = options.map === undefined ? undefined : await readColumnMap(options.map);
      const builder = new ReportBuilder({ strict: options.strict === true });
      const progress = startProgress(io, 'validated');
      try {
        await validateInputs({ resource, inputs, stdin: io.stdin, now: io.now(), builder, onRecord: progress.tick, ...(map ? { map } : {}) });
      } finally {
        progress.stop();
      }
      const report = builder.build();
      io.stdout.write(options.format === 'json' ? formatJson(report) : formatPretty(report, colorFor(io.stdout, io.env)));
      setExit(reportExitCode(report));
    });
}

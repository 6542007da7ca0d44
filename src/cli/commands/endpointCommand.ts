import { Command, Option } from 'commander';
import { inputSpec } from '../../readers/openInput.js';
import type { InputFormat } from '../../readers/sourceRecord.js';
import type { Resource } from '../../resources/resource.js';
import { readColumnMap } from '../columnMap.js';
import type { CliIo } from '../io.js';
import { addRunOptions, executeRun, type RunFlags } from '../runCommand.js';
import { fraudByHand } from './fraudByHand.js';

interface EndpointFlags extends RunFlags {
  inputFormat?: InputFormat;
  map?: string;
  orderId?: string;
}

const FRAUD_BY_HAND = `

One order by hand (asks for confirmation on a terminal; --yes skips it):
  $ collect fraud --order-id ORD-1001 --type chargeback --comment "chargeback 2024-04-02"`;

function examples(name: string): string {
  return `
Examples:
  $ collect ${name} ${name}s.csv --dry-run                 check a CSV export
  $ collect ${name} a.ndjson b.json.gz --dry-run --format json > report.json
  $ cat ${name}s.ndjson | collect ${name} - --input-format ndjson --dry-run
  $ collect ${name} export.csv --map columns.json --dry-run   read differently named columns
  $ collect ${name} ${name}s.csv --dry-run --format github     annotations in a GitHub Actions job

Exit codes: 0 all valid, 1 some record invalid, 2 usage or unreadable input.`;
}

/** `collect order|status|fraud|payment|delivery [files...]`. */
export function endpointCommand(resource: Resource, io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command(resource.name)
    .summary(resource.summary)
    .description(`${resource.method} ${resource.path}: ${resource.summary}.\nReads JSON, NDJSON or CSV (optionally .gz) files, or standard input, and checks every\nrecord against the schema and the flow rules (collect rules), with what earlier runs recorded.`)
    .argument('[files...]', 'input files; - or nothing for standard input')
    .addOption(new Option('--input-format <format>', 'input format, needed for standard input').choices(['json', 'ndjson', 'csv']))
    .option('--map <file>', 'JSON object {"field.path": "source column"} to read CSV exports with other headers');
  if (resource.name === 'fraud') {
    command
      .option('--order-id <id>', 'mark this one order fraudulent (instead of reading files)')
      .addOption(new Option('--type <type>', 'the fraud signal type, with --order-id').choices(['acquirer', 'manual_analysis', 'chargeback', 'third_party_antifraud', 'other']))
      .option('--comment <text>', 'fraud_comment, with --order-id (required for third_party_antifraud)')
      .option('--yes', 'send without asking for confirmation');
  }
  return addRunOptions(command)
    .addHelpText('after', examples(resource.name) + (resource.name === 'fraud' ? FRAUD_BY_HAND : ''))
    .action(async (files: string[], flags: EndpointFlags) => {
      if (flags.orderId !== undefined) {
        setExit(await fraudByHand(files, { ...flags, orderId: flags.orderId }, io));
        return;
      }
      const inputs = (files.length > 0 ? files : ['-']).map((name) => ({ endpoint: resource.name, spec: inputSpec(name, flags.inputFormat) }));
      const map = flags.map === undefined ? undefined : await readColumnMap(flags.map);
      setExit(await executeRun(inputs, flags, io, map));
    });
}

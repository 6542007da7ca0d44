import { Command, Option } from 'commander';
import { exitCodes, exitCodesHelp, type ExitRow } from '../../core/exitCodes.js';
import { chargebacksWithFlags, type ChargebackFlags } from '../../compose/chargebacksWithFlags.js';
import { inputFormatNames } from '../../decode/inputFormats.js';
import type { CliIo } from '../../terminal/io.js';
import { addRunOptions } from '../runOptions.js';
import { asksBeforeSending } from '../prompt.js';

/** What `collect chargebacks` ends with: a row that needs a human is 1, even in a dry run. */
const exits: readonly ExitRow[] = [
  [exitCodes.ok, 'every row matched and marked (in a dry run: ready to mark), none needing a human'],
  [
    exitCodes.invalid,
    'rows invalid, unmatched or needing a human (the report lists them), or marks rejected',
  ],
  exitCodes.usage,
  exitCodes.deliveryFailed,
  exitCodes.interrupted,
];

/** `collect chargebacks FILE...`: an acquirer's chargeback report to fraud marks (docs/chargebacks.md). */
export function chargebacksCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('chargebacks')
    .summary("mark the orders of an acquirer's chargeback report fraudulent, matched by acquirer id")
    .description(
      'Reads a chargeback report (CSV, NDJSON or JSON, .gz too; one row per chargeback with ' +
        'acquirer_id\nor order_id, and reason_code, network, reason, amount, currency, received_at, ' +
        "arn), or an\nacquirer's own dispute report with no mapping (--formats lists them), finds " +
        "each\nrow's order through the state (the acquirer ids sent at creation and by payment " +
        'updates) or\n--orders FILE, and sends one POST /v2/order/mark_fraudulent per order ' +
        '(fraud_signal_type\nchargeback, the chargebacks in fraud_comment). Never for an order the ' +
        'service declined (§1.5),\nnever twice for one order.',
    )
    .argument('[files...]', 'chargeback reports; - or nothing for standard input')
    .addOption(
      new Option('--input-format <format>', 'input format, needed for standard input').choices(
        inputFormatNames,
      ),
    )
    .option(
      '--map <file>',
      "a mapping file whose entry with endpoint: chargeback reads the acquirer's own columns",
    )
    .option(
      '--orders <file>',
      'an export with order_id and acquirer_id (or orders with payments) for ids the state lacks',
    )
    .option(
      '--orders-map <file>',
      "a mapping file whose endpoint: order entries read the --orders export's own columns",
    )
    .option(
      '--only-fraud',
      'send only rows whose reason code is in the fraud category (the others: not-fraud)',
    )
    .option('--reason-categories <file>', 'CSV network,reason_code,category[,label] over the shipped table')
    .option('--formats', 'list the acquirer formats read with no --map (source-files.md), and exit');
  // --formats only lists the presets: nothing to ask.
  asksBeforeSending(command, io, { what: 'chargeback marks', when: (flags) => flags.formats !== true });
  return addRunOptions(command)
    .addHelpText(
      'after',
      `
Examples:
  $ collect chargebacks report.csv --orders orders.csv --dry-run
  $ collect chargebacks acquirer-report.csv --map acquirer.yaml --orders orders.csv --dry-run --rejects fix.csv
  $ collect chargebacks report.csv --orders orders.csv --only-fraud --base-url https://collect.example.com --yes

${exitCodesHelp(exits)}`,
    )
    .action(async (files: string[], flags: ChargebackFlags) => {
      setExit(await chargebacksWithFlags(files, flags, io));
    });
}

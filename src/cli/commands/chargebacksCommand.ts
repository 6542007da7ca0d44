import { Command, Option } from 'commander';
import { UsageError } from '../../core/errors.js';
import { exitCodes, exitCodesHelp, type ExitCode, type ExitRow } from '../../core/exitCodes.js';
import { terminalLines } from '../../core/terminalText.js';
import { inputSpec } from '../../decode/openInput.js';
import type { InputFormat } from '../../decode/sourceRecord.js';
import { flowRules } from '../../flow/rules/index.js';
import { registry } from '../../resources/registry.js';
import { chargebackResource } from '../../chargebacks/chargebackRow.js';
import { chargebackReportChunks, chargebacksExitCode } from '../../chargebacks/chargebackReport.js';
import { planChargebacks, type Plan } from '../../chargebacks/planChargebacks.js';
import { reasonTable, writeRejects } from '../../chargebacks/chargebackFiles.js';
import type { ReportInput } from '../../chargebacks/readChargebacks.js';
import { keyInEnvironment, loadApiKey, redactor } from '../apiKey.js';
import type { CliIo } from '../io.js';
import { refuseUnsafeOutputs } from '../outputPaths.js';
import { addRunOptions, runWithFlags, type RunFlags } from '../runOptions.js';
import { chooseState } from '../stateChoice.js';
import { asksBeforeSending, type AskingFlags, type Question } from '../prompt.js';

interface ChargebackFlags extends RunFlags, AskingFlags {
  map?: string;
  orders?: string;
  ordersMap?: string;
  onlyFraud?: boolean;
  reasonCategories?: string;
  inputFormat?: InputFormat;
}

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
      "Reads a chargeback report (CSV, NDJSON or JSON, .gz too; one row per chargeback with acquirer_id\nor order_id, and reason_code, network, reason, amount, currency, received_at, arn), finds each\nrow's order through the state (the acquirer ids sent at creation and by payment updates) or\n--orders FILE, and sends one POST /v2/order/mark_fraudulent per order (fraud_signal_type\nchargeback, the chargebacks in fraud_comment). Never for an order the service declined (§1.5),\nnever twice for one order.",
    )
    .argument('[files...]', 'chargeback reports; - or nothing for standard input')
    .addOption(
      new Option('--input-format <format>', 'input format, needed for standard input').choices([
        'json',
        'ndjson',
        'csv',
      ]),
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
    .option('--reason-categories <file>', 'CSV network,reason_code,category[,label] over the shipped table');
  asksBeforeSending(command, io, { what: 'chargeback marks' });
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
      setExit(await chargebacks(files, flags, io));
    });
}

async function chargebacks(files: string[], flags: ChargebackFlags, io: CliIo): Promise<ExitCode> {
  const sending = flags.dryRun !== true;
  const baseUrl = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  if (sending && !baseUrl)
    throw new UsageError(
      'no service to send to: give --base-url URL or set COLLECT_BASE_URL',
      'or add --dry-run to see the match report without sending',
    );
  // Flags of the run that mean nothing for a report's rows: refused rather than ignored.
  if (flags.transform !== undefined)
    throw new UsageError(
      '--transform is not taken by collect chargebacks',
      "read the acquirer's columns with --map",
    );
  if (flags.shard !== undefined)
    throw new UsageError(
      '--shard is not taken by collect chargebacks',
      'a report is matched whole: leave --shard out',
    );
  const table = await reasonTable(flags.reasonCategories);
  const specs = (files.length > 0 ? files : ['-']).map((name) => inputSpec(name, flags.inputFormat));
  const ordersSpec = flags.orders === undefined ? undefined : inputSpec(flags.orders);
  refuseUnsafeOutputs(
    { ...(flags.rejects ? { rejects: flags.rejects } : {}) },
    { specs: [...specs, ...(ordersSpec ? [ordersSpec] : [])] },
  );
  if (flags.ordersMap !== undefined && ordersSpec === undefined)
    throw new UsageError(
      '--orders-map needs --orders FILE',
      'give the export with --orders FILE --orders-map M',
    );
  // A mapping's code is loaded only when a mapping is given.
  const mapEndpointInputs = async (...args: Parameters<typeof import('../columnMap.js').mapEndpointInputs>) =>
    (await import('../columnMap.js')).mapEndpointInputs(...args);
  const mapped = flags.map
    ? await mapEndpointInputs(flags.map, specs, 'chargeback', chargebackResource)
    : undefined;
  let ordersMapped: Awaited<ReturnType<typeof mapEndpointInputs>> | undefined;
  try {
    if (flags.ordersMap !== undefined && ordersSpec !== undefined)
      ordersMapped = await mapEndpointInputs(flags.ordersMap, [ordersSpec], 'order');
  } catch (cause) {
    mapped?.close();
    throw cause;
  }
  const ordersInput = ordersMapped?.inputs[0];
  const reports: ReportInput[] = mapped
    ? mapped.inputs.map((input) => ({ spec: input.spec, ...(input.map ? { map: input.map } : {}) }))
    : specs.map((spec) => ({ spec }));
  const secret = sending ? loadApiKey(io, flags.apiKeyFile) : keyInEnvironment(io.env);
  let plan: Plan;
  try {
    const { stateDir } = chooseState({
      ...(flags.state === undefined ? {} : { state: flags.state }),
      envState: io.env.COLLECT_STATE ?? '',
      sending,
      ...(baseUrl === undefined ? {} : { baseUrl }),
    });
    plan = await planChargebacks(
      {
        reports,
        ...(ordersSpec ? { orders: ordersInput?.spec ?? ordersSpec } : {}),
        ...(ordersInput?.map ? { ordersMap: ordersInput.map } : {}),
        stateDir,
        ...(baseUrl === undefined ? {} : { baseUrl }),
        table,
        onlyFraud: flags.onlyFraud === true,
        maxRecordBytes: flags.maxRecordBytes,
        keepRaw: flags.rejects !== undefined,
      },
      io.stdin,
      io.now(),
    );
  } finally {
    mapped?.close();
    ordersMapped?.close();
  }
  for (const note of plan.notes) io.stderr.write(terminalLines(`collect: ${note}\n`));
  if (flags.rejects) await writeRejects(flags.rejects, plan, reports, redactor(secret));
  const { match } = plan;
  const fraud = registry.get('fraud')!;
  const marks = match.marks.map((mark) => mark.body);
  const counts = Object.entries(match.counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ');
  const ask = (warnings: readonly string[]): Question => ({
    shown: `chargebacks: ${match.verdicts.length} rows: ${counts}\n${marks.length} fraud marks (chargeback) to ${baseUrl ?? ''}\n`,
    warnings,
    question: `Send ${marks.length} chargeback ${marks.length === 1 ? 'mark' : 'marks'}?`,
    yes: flags.yes === true,
    what: 'chargeback marks',
  });
  const { rejects: _rejects, ...runFlags } = flags;
  const code = await runWithFlags(
    [{ resource: fraud, spec: { name: '(chargebacks)', format: 'json', gzip: false, records: marks } }],
    runFlags,
    io,
    {
      // The order was found in the state or the orders export: a mark for an order created outside collect is expected.
      rules: flowRules.filter((rule) => rule.code !== 'unknown-order'),
      ...(sending ? { ask } : {}),
      report: (result, color, options) =>
        chargebackReportChunks(match, result.report, result.issues, flags.format, color, {
          ...options,
          dryRun: !sending,
          exitCode: chargebacksExitCode(result.exitCode, match),
        }),
    },
  );
  return chargebacksExitCode(code, match);
}

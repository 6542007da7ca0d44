import { UsageError } from '../core/errors.js';
import { exitCodes, type ExitCode } from '../core/exitCodes.js';
import { terminalLines } from '../core/terminalText.js';
import { inputSpec } from '../decode/openInput.js';
import type { InputFormat } from '../decode/formatName.js';
import { flowRules } from '../flow/rules/index.js';
import { registry } from '../resources/registry.js';
import { keyInEnvironment, loadApiKey, redactor } from './apiKey.js';
import type { CliIo } from '../terminal/io.js';
import { refuseUnsafeOutputs } from './outputPaths.js';
import { runWithFlags, type RunFlags } from './runWithFlags.js';
import { chooseState } from './stateChoice.js';
import type { AskingFlags, Question } from '../terminal/confirmSending.js';
import { chargebackResource } from '../chargebacks/chargebackRow.js';
import { chargebackReportChunks, chargebacksExitCode } from '../chargebacks/chargebackReport.js';
import { planChargebacks, type Plan } from '../chargebacks/planChargebacks.js';
import { reasonTable, writeRejects } from '../chargebacks/chargebackFiles.js';
import { formatsJson, formatsText } from '../chargebacks/formats/listFormats.js';
import { presetOfMap, shippedPresets } from '../chargebacks/formats/loadPresets.js';
import { reportInputs, reportSpec, type ReportInput } from '../chargebacks/reportInputs.js';

/** The flags of `collect chargebacks`, as the command parsed them. */
export interface ChargebackFlags extends RunFlags, AskingFlags {
  map?: string;
  orders?: string;
  ordersMap?: string;
  onlyFraud?: boolean;
  reasonCategories?: string;
  inputFormat?: InputFormat;
  formats?: boolean;
}

/**
 * `collect chargebacks FILE...` (docs/chargebacks.md): each report read in its format, matched, its
 * marks sent by the run of `collect fraud`; the exit code says whether a row needs a human.
 */
export async function chargebacksWithFlags(
  files: string[],
  flags: ChargebackFlags,
  io: CliIo,
): Promise<ExitCode> {
  if (flags.formats === true) {
    const presets = shippedPresets();
    io.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify({ formats: formatsJson(presets) }, null, 2)}\n`
        : formatsText(presets),
    );
    return exitCodes.ok;
  }
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
  const specs = (files.length > 0 ? files : ['-']).map((name) => reportSpec(name, flags.inputFormat));
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
  // A preset copied and changed by the user is read by the presets' engine; its format is `mapping`.
  const ownPreset = flags.map === undefined ? undefined : presetOfMap(flags.map);
  const mapped =
    flags.map && !ownPreset
      ? await (
          await import('./columnMap.js')
        ).mapEndpointInputs(flags.map, specs, 'chargeback', chargebackResource)
      : undefined;
  let ordersMapped: Awaited<ReturnType<typeof import('./columnMap.js').mapEndpointInputs>> | undefined;
  try {
    if (flags.ordersMap !== undefined && ordersSpec !== undefined)
      ordersMapped = await (
        await import('./columnMap.js')
      ).mapEndpointInputs(flags.ordersMap, [ordersSpec], 'order');
  } catch (cause) {
    mapped?.close();
    throw cause;
  }
  const ordersInput = ordersMapped?.inputs[0];
  const reports: ReportInput[] = ownPreset
    ? reportInputs(specs, undefined, [ownPreset]).map((r) => (r.recognised ? { ...r, format: 'mapping' } : r))
    : reportInputs(specs, mapped?.inputs);
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
    shown:
      `chargebacks: ${match.verdicts.length} rows: ${counts}\n${marks.length} fraud marks ` +
      `(chargeback) to ${baseUrl ?? ''}\n`,
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
          files: plan.files,
          exitCode: chargebacksExitCode(result.exitCode, match),
        }),
    },
  );
  return chargebacksExitCode(code, match);
}

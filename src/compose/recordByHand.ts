import { UsageError } from '../core/errors.js';
import type { ExitCode } from '../core/exitCodes.js';
import type { ByHand, Resource } from '../resources/resource.js';
import type { Outcome } from '../send/sender.js';
import { byHandSummary } from './byHandSummary.js';
import { colorFor } from '../terminal/color.js';
import type { CliIo } from '../terminal/io.js';
import type { AskingFlags, Question } from '../terminal/confirmSending.js';
import { runWithFlags, type RunFlags } from './runWithFlags.js';
import { chooseState } from './stateChoice.js';

export interface ByHandFlags extends RunFlags, AskingFlags {
  [flag: string]: unknown;
}

async function orderOfAcquirer(flags: ByHandFlags, io: CliIo): Promise<string> {
  if (flags.orderId !== undefined) throw new UsageError('give --order-id or --acquirer-id, not both');
  const baseUrl = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  const { stateDir } = chooseState({
    ...(flags.state === undefined ? {} : { state: flags.state }),
    envState: io.env.COLLECT_STATE ?? '',
    sending: flags.dryRun !== true,
    ...(baseUrl === undefined ? {} : { baseUrl }),
  });
  const { orderOfAcquirerId } = await import('../chargebacks/orderOfAcquirerId.js');
  return orderOfAcquirerId(String(flags.acquirerId), stateDir, baseUrl);
}

/**
 * One record typed on the command line (`collect fraud --order-id ID --type TYPE`): checked in
 * memory exactly like a file record (schema and flow rules with the state), then shown and
 * confirmed on a terminal right before it is sent (terminal/confirmSending.ts), in the same single run. No progress
 * line (one record); the pretty report is a short summary of what was sent and what
 * the service answered, or why nothing was sent.
 */
export async function recordByHand(
  resource: Resource,
  byHand: ByHand,
  files: string[],
  flags: ByHandFlags,
  io: CliIo,
): Promise<ExitCode> {
  if (files.length > 0)
    throw new UsageError(
      `give either files or ${byHand.options[0]?.flags.split(' ')[0] ?? "the record's flags"}, not both`,
    );
  // Checks its flags first (--type), with a stand-in for the order an --acquirer-id names.
  let body = byHand.record(flags.acquirerId === undefined ? flags : { ...flags, orderId: '' });
  if (!flags.dryRun && !(flags.baseUrl ?? io.env.COLLECT_BASE_URL)) {
    throw new UsageError(
      'no service to send to: give --base-url URL or set COLLECT_BASE_URL',
      `or add --dry-run to check the ${resource.name} record without sending`,
    );
  }
  // `collect fraud --acquirer-id TX`: the order is found in the state as `collect chargebacks` finds it.
  if (flags.acquirerId !== undefined)
    body = byHand.record({ ...flags, orderId: await orderOfAcquirer(flags, io) });
  const spec = { name: '(command line)', format: 'json' as const, gzip: false, records: [body] };
  let previewed = false;
  let outcome: Outcome | undefined;
  const target = (flags.baseUrl ?? io.env.COLLECT_BASE_URL ?? '').replace(/\/+$/, '');
  // What the rules could not check is said before the question (and with --yes, all the same), once.
  const ask = (warnings: readonly string[]): Question => {
    previewed = true;
    return {
      shown: `${resource.method} ${target}${resource.path}\n${JSON.stringify(body, null, 2)}\n`,
      warnings,
      question: `Send this ${byHand.noun}?`,
      yes: flags.yes === true,
      what: `a ${byHand.noun}`,
    };
  };
  return runWithFlags([{ resource, spec }], flags, io, {
    noProgress: true,
    ...(flags.dryRun ? {} : { ask, onSent: (sent: Outcome) => (outcome = sent) }),
    // The machine formats keep the run's report as it is.
    ...(flags.format === 'pretty'
      ? {
          show: (result, shown) =>
            shown.stdout.write(
              byHandSummary(
                {
                  noun: byHand.noun,
                  dryRun: flags.dryRun === true,
                  previewed,
                  report: result.report,
                  declined: result.declined,
                  interrupted: result.interrupted,
                  exitCode: result.exitCode,
                  ...(result.halted ? { halted: result.halted } : {}),
                  ...(outcome ? { outcome } : {}),
                },
                colorFor(shown.stdout, shown.env),
              ),
            ),
        }
      : {}),
  });
}

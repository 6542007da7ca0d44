import type { FlowRule } from '../flow/rules/rule.js';
import { realClock } from '../send/clock.js';
import { Sender } from '../send/sender.js';
import type { RecordSink } from './checkOptions.js';
import type { DisposalStack } from './disposalStack.js';
import type { OpenRun } from './openRun.js';
import type { RunLedger } from './runLedger.js';
import type { Progress, RunDeps, RunRequest } from './runRequest.js';
import { outcomeRecorder, sendingSink, type SendContext } from './sendingSink.js';

/** Where the checked records go: the sender (a run that sends) and the sink that feeds it and --rejects. */
export interface Sending {
  sender?: Sender<SendContext>;
  sink?: RecordSink & { declined: boolean };
}

/**
 * Readies sending: each valid record the check hands over is sent as it comes (flow order), each
 * answer recorded in the ledger, the output files and the state; the progress moves from
 * checking to sending with the first answer, since every record is checked by then.
 */
export function startSending(
  request: RunRequest,
  deps: RunDeps,
  run: OpenRun,
  ledger: RunLedger,
  rules: readonly FlowRule[],
  checking: Progress,
  stack: DisposalStack,
): Sending {
  const { rejects, results, durable, client } = run;
  const parts = {
    ledger,
    ...(rejects ? { rejects } : {}),
    ...(results ? { results } : {}),
    ...(durable ? { commit: durable.commit } : {}),
  };
  const decisions = new Map<string, string>();
  const record = outcomeRecorder(parts, decisions);
  let sending: Progress | undefined;
  stack.defer(() => sending?.stop());
  const sender = client
    ? new Sender<SendContext>({
        client,
        concurrency: request.concurrency,
        retries: request.retries,
        timeoutMs: request.timeoutMs,
        clock: realClock,
        random: Math.random,
        onOutcome: (job, outcome) => {
          const committed = record(job, outcome);
          deps.onSent?.(outcome);
          if (!sending) {
            checking.stop();
            sending = deps.progress('sent', ledger.validRecords);
          }
          sending.tick(outcome.kind !== 'accepted');
          return committed;
        },
        ...(request.rate === undefined ? {} : { rate: request.rate }),
        ...(durable ? { onStall: durable.onStall } : {}),
      })
    : undefined;
  const { confirm } = deps;
  const ask = confirm ? { confirm: () => confirm(ledger.warningsBeforeSending()) } : {};
  const sink =
    sender || rejects
      ? sendingSink(parts, sender, decisions, { rules, resend: request.resend, ...ask })
      : undefined;
  return { ...(sender ? { sender } : {}), ...(sink ? { sink } : {}) };
}

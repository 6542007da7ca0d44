import { flowRules, type FlowRule } from '../flow/rules/index.js';
import { InsightsBuilder } from '../report/insights.js';
import { ReportBuilder } from '../report/report.js';
import { StateError } from '../state/stateErrors.js';
import { checkRecords } from './checkRecords.js';
import { DisposalStack } from './disposalStack.js';
import { openRun, type OpenRun } from './openRun.js';
import { RunLedger } from './runLedger.js';
import { runPolicy, type RunPolicy } from './runPolicy.js';
import type { Progress, RunDeps, RunRequest, RunResult } from './runRequest.js';
import { shardFilter } from './shard.js';
import { startSending, type Sending } from './startSending.js';
import { summarise } from './summarise.js';

export type { Progress, RunDeps, RunRequest, RunResult, Service } from './runRequest.js';

/** What the steps of one run share. */
interface Run {
  request: RunRequest;
  deps: RunDeps;
  rules: readonly FlowRule[];
  policy: RunPolicy;
  ledger: RunLedger;
}

/**
 * In a run that sends, a failure to keep answers durable is its outcome (the summary still printed); any
 * other is thrown on.
 */
function stateFailureOf(cause: unknown, sending: boolean): StateError {
  if (sending && cause instanceof StateError) return cause;
  throw cause;
}

/** Reads and checks every record (schema, then flow rules with the state), handing each to the sink. */
async function check(
  run: Run,
  opened: OpenRun,
  sending: Sending,
  checking: Progress,
  stop: { now: () => boolean; signal: AbortSignal },
) {
  const { request, deps, ledger } = run;
  const shard = request.shard ? shardFilter(request.shard) : undefined;
  await checkRecords({
    inputs: request.inputs,
    rules: run.rules,
    stdin: deps.stdin,
    now: deps.now(),
    ledger,
    state: opened.state,
    runIndex: opened.runIndex,
    onRecord: checking.tick,
    remember: run.policy.remember,
    limits: { maxRecordBytes: request.maxRecordBytes },
    ...(request.maxErrors === undefined ? {} : { maxErrors: request.maxErrors }),
    ...(sending.sink ? { sink: sending.sink } : {}),
    shouldStop: () => stop.now() || opened.state.failed,
    signal: stop.signal,
    ...(shard ? { keep: shard.keep } : {}),
  });
  if (shard) {
    const took = `${shard.kept()} records; ${shard.passed()} of other shards passed over`;
    ledger.note('shard', `shard ${shard.label}: this run took the orders whose id hashes to it (${took})`);
  }
}

/** Waits for the last answers; a commit that failed with no slot waiting for it must not end the run as if kept. */
async function finishSending(opened: OpenRun, sending: Sending): Promise<void> {
  await sending.sender?.drain();
  opened.durable?.flush();
  opened.durable?.throwIfFailed();
}

/**
 * The one verb of every checking and sending command: open the state and what the run writes,
 * check every record, send the valid ones in flow order unless it is a dry run, and summarise
 * the run as its report and exit code. What it opens is released, last first, on every way out.
 */
export async function checkAndSend(request: RunRequest, deps: RunDeps): Promise<RunResult> {
  const rules = request.rules ?? flowRules;
  const report = new ReportBuilder({
    strict: request.strict,
    ...(deps.issueSpill ? { spill: deps.issueSpill } : {}),
    ...(deps.memoryRecords === undefined ? {} : { spillAt: deps.memoryRecords }),
  });
  const insights = new InsightsBuilder(() => deps.now().getTime());
  const warned = new Set(rules.filter((rule) => rule.warnBeforeSending).map((rule) => rule.code));
  const ledger = new RunLedger({
    strict: request.strict,
    emit: (event) => {
      report.apply(event);
      insights.apply(event);
    },
    ...(deps.confirm ? { warnBeforeSending: warned } : {}),
  });
  const run: Run = { request, deps, rules, policy: runPolicy(request), ledger };
  const stack = new DisposalStack();
  let stateFailure: StateError | undefined;
  let interrupted = false;
  let sending: Sending = {};
  try {
    const keepsAnswers = run.policy.sending && request.stateDir !== null;
    const opened = await openRun(
      request,
      deps,
      run.policy,
      stack,
      (cause) => void (stateFailure ??= stateFailureOf(cause, keepsAnswers)),
    );
    const checking = stack.adopt(deps.progress('checked'), (progress) => progress.stop());
    sending = startSending(request, deps, opened, ledger, rules, checking, stack);
    // Retries go on the timeline as they are made, at their own minute: the sender counts them.
    const { sender } = sending;
    if (sender) sender.onRetry = () => insights.retriedSoFar(sender.retried);
    const aborted = new AbortController();
    stack.defer(
      deps.onInterrupt(() => {
        interrupted = true;
        aborted.abort();
      }),
    );
    try {
      await check(run, opened, sending, checking, { now: () => interrupted, signal: aborted.signal });
      await finishSending(opened, sending);
    } catch (cause) {
      // The answers could not be kept (through a stopped sender, or found once it drained): the summary so
      // far is the report.
      stateFailure = stateFailureOf(cause, opened.durable !== undefined);
    }
  } finally {
    await stack.dispose();
  }
  const { sender, sink } = sending;
  const result = summarise(ledger, report, {
    interrupted,
    declined: sink?.declined === true,
    ...(sender ? { retried: sender.retried } : {}),
    ...(sender?.halted ? { halted: sender.halted } : {}),
    ...(stateFailure ? { stateFailure } : {}),
  });
  return { ...result, insights: insights.build() };
}

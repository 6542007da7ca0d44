import { RejectsWriter, ResultsWriter } from '../send/outputFiles.js';
import { rejectsTargets } from './rejectsTargets.js';
import type { HttpClient } from '../send/httpClient.js';
import { openState } from '../state/openState.js';
import type { RunState } from '../state/runState.js';
import type { DisposalStack } from './disposalStack.js';
import { DurableOutcomes } from './durableOutcomes.js';
import { RunIndex } from './runIndex/runIndex.js';
import type { RunPolicy } from './runPolicy.js';
import type { RunDeps, RunRequest } from './runRequest.js';

/** What a run holds while it checks and sends: each is released by the stack it was opened on. */
export interface OpenRun {
  state: RunState;
  runIndex: RunIndex;
  rejects?: RejectsWriter;
  results?: ResultsWriter;
  /** A sending run with a state: each answer kept before its slot is reused. */
  durable?: DurableOutcomes;
  /** A sending run's connection to the service. */
  client?: HttpClient;
}

/**
 * Opens (and locks) the state, the run's scratch, its output files and its connection to the
 * service, each put on `stack` as it is taken. `onStateFailure` hears the state's last commit failing.
 */
export async function openRun(
  request: RunRequest,
  deps: RunDeps,
  policy: RunPolicy,
  stack: DisposalStack,
  onStateFailure: (cause: unknown) => void,
): Promise<OpenRun> {
  const { service } = request;
  const { locking, readOnly } = policy;
  // undici is loaded only by a run that sends (a dry run starts without it), before anything is locked.
  const http = service ? await import('../send/httpClient.js') : undefined;
  const shard = request.shard ? { shard: request.shard } : {};
  const opened = await openState(request.stateDir, service?.baseUrl ?? request.dryRunBaseUrl, {
    locking,
    readOnly,
    resources: request.inputs.map((input) => input.resource),
    ...shard,
  });
  const remembering = !service && request.remember === true && deps.rememberOnThread;
  const state = stack.adopt(remembering ? remembering(opened) : opened, (held) => held.close());
  if (locking) {
    const lock = await state.lock({
      where: state.location ?? String(request.stateDir),
      waitMs: request.lockWaitMs ?? 0,
      command: request.command ?? 'collect',
      ...shard,
    });
    stack.defer(() => lock.release());
  }
  // A remote state's last group must be committed before the lock goes to another run.
  stack.defer(() => state.durable().catch(onStateFailure));
  // Throwaway files in a folder of this run's own, which the next run removes if this one is killed.
  const scratch = stack.adopt(state.scratch(deps.scratchDir), (held) => held.close());
  const runIndex = stack.adopt(new RunIndex(() => scratch.dir(), deps.memoryRecords), (index) =>
    index.close(),
  );
  const targets = rejectsTargets(request.inputs);
  const close = (file: { close(): Promise<void> }) => file.close();
  const rejects =
    request.rejects === undefined
      ? undefined
      : stack.adopt(new RejectsWriter(request.rejects, targets.specs, deps.redact, targets.folder), close);
  const results =
    request.results === undefined
      ? undefined
      : stack.adopt(new ResultsWriter(request.results, deps.redact), close);
  const durable =
    service && request.stateDir !== null
      ? new DurableOutcomes(state, deps.now, request.concurrency)
      : undefined;
  // Every answer committed before the state closes.
  if (durable) stack.defer(() => durable.flush());
  const client =
    service && http
      ? stack.adopt(
          http.createHttpClient(service.base, service.apiKey, request.concurrency, request.timeoutMs),
          close,
        )
      : undefined;
  return {
    state,
    runIndex,
    ...(rejects ? { rejects } : {}),
    ...(results ? { results } : {}),
    ...(durable ? { durable } : {}),
    ...(client ? { client } : {}),
  };
}

import { error, type Issue } from '../core/issue.js';
import type { Facts } from '../flow/facts.js';
import type { FlowRule } from '../flow/rules/rule.js';
import type { FlowEvent } from '../flow/timeline.js';
import type { RawRecord } from '../decode/sourceRecord.js';
import type { Resource } from '../resources/resource.js';
import type { RejectsWriter, ResultsWriter } from '../send/outputFiles.js';
import { MAX_ANSWER_BYTES } from '../send/responseBody.js';
import { parseBody } from '../send/responseBody.js';
import type { Outcome, Sender, SendJob } from '../send/sender.js';
import type { RecordSink } from './checkOptions.js';
import type { RunLedger } from './runLedger.js';

/** What the run keeps beside each request, to record its outcome. */
export interface SendContext {
  raw: RawRecord | undefined;
  facts: Facts;
  resource: Resource;
  hash: string;
}

/** What an outcome is recorded in; `commit` journals it and resolves once it is durable (see durableOutcomes). */
export interface OutcomeParts {
  ledger: RunLedger;
  rejects?: RejectsWriter;
  results?: ResultsWriter;
  commit?: (entry: {
    facts: Facts;
    resource: Resource;
    hash: string;
    outcome: 'accepted' | 'rejected' | 'failed';
    decision?: string;
  }) => Promise<void> | undefined;
}

/** The reason written beside a record in --rejects: every issue that made it invalid. */
export const reasonOf = (issues: readonly Issue[]) =>
  issues.map((issue) => `${issue.code}${issue.path ? ` ${issue.path}` : ''}: ${issue.message}`).join('; ');

function describeFailure(outcome: Exclude<Outcome, { kind: 'accepted' }>) {
  switch (outcome.kind) {
    case 'rejected':
      return [
        'rejected',
        error(
          'rejected-by-service',
          '',
          `the service rejected it (HTTP ${outcome.status}): ${outcome.message}`,
          { hint: 'fix the record as the message says and send it again' },
        ),
      ] as const;
    case 'vetoed':
      return ['rejected', error(outcome.code, '', outcome.message, { hint: 'do not send it' })] as const;
    case 'refused':
      return [
        'failed',
        error('key-refused', '', `the service refused the API key (HTTP ${outcome.status})`, {
          hint: 'check COLLECT_API_KEY or --api-key-file, and the base URL',
        }),
      ] as const;
    case 'failed':
      return [
        'failed',
        error('delivery-failed', '', `not delivered: ${outcome.reason}`, {
          hint: 'run the same command again to retry; check the service and the network',
        }),
      ] as const;
    case 'blocked':
      return [
        'failed',
        error('held', '', outcome.reason, {
          hint:
            outcome.by === 'creation'
              ? "fix the order's creation (see --rejects); a re-run sends this record once the creation is accepted"
              : 'run the same command again: it sends the earlier call first, then this one',
        }),
      ] as const;
    default:
      return [
        'failed',
        error('not-sent', '', outcome.reason, { hint: 'run the same command again once the cause is fixed' }),
      ] as const;
  }
}

const NOT_SENT = 'not sent: sending had stopped (see above); a re-run sends them';
const HELD = {
  creation:
    "held: not sent because their order's creation was not accepted; a re-run sends them, in flow order, once it is",
  'earlier-call':
    'held: not sent because an earlier call of their order failed; a re-run sends that call, then them, in flow order',
} as const;

/** A 404 to an update: the service does not know its order, so the record itself is not at fault. */
const orderMissing = (status: number, resource: Resource) => status === 404 && resource.role !== 'creation';

/** The service's answer for a results line: its JSON, or its text when it is not JSON. */
const answerBody = (text: string): unknown => (text === '' ? null : (parseBody(text) ?? text));

/**
 * Records each outcome of sending in the report, the results and rejects files, and the state; notes the
 * decisions of this run.
 */
export function outcomeRecorder(parts: OutcomeParts, decisions: Map<string, string>) {
  const { ledger, results, rejects, commit } = parts;
  return (job: SendJob<SendContext>, outcome: Outcome): Promise<void> | undefined => {
    const { location } = job;
    const { facts, resource, hash, raw } = job.context;
    const requested = 'attempts' in outcome;
    if (requested) {
      results?.write({
        endpoint: job.endpoint,
        key: facts.key,
        file: location.file,
        line: location.line,
        index: location.index,
        status: 'status' in outcome ? outcome.status : null,
        attempts: outcome.attempts,
        ...('text' in outcome ? { body: answerBody(outcome.text) } : {}),
        ...(outcome.kind === 'failed' ? { error: outcome.reason } : {}),
        ...('truncated' in outcome
          ? { body_truncated: `only the first ${MAX_ANSWER_BYTES} bytes of the answer were read` }
          : {}),
      });
    }
    if (outcome.kind === 'accepted') {
      ledger.addSent(
        job.endpoint,
        location,
        outcome.decision ? { kind: 'accepted', decision: outcome.decision } : { kind: 'accepted' },
        true,
      );
      if (outcome.decision) decisions.set(job.orderId, outcome.decision);
      return commit?.({
        facts,
        resource,
        hash,
        outcome: 'accepted',
        ...(outcome.decision ? { decision: outcome.decision } : {}),
      });
    }
    // Not sent because sending stopped (a refused key, a setup failure): counted in one note, like the
    // records never handed over.
    if (outcome.kind === 'not-sent') return void ledger.note('not-sent', NOT_SENT, 1);
    const [kind, issue] = describeFailure(outcome);
    ledger.addSent(job.endpoint, location, { kind, issue }, requested);
    if (outcome.kind === 'blocked')
      ledger.note(outcome.by === 'creation' ? 'held' : 'held-after-failure', HELD[outcome.by], 1);
    rejects?.write(location.file, raw, issue.message);
    // Journaled so that a re-run sends a rejected record again only once it has changed, and retries failures;
    // an update refused because the service does not know its order (404) is retried too: it is not the record's fault.
    if (outcome.kind === 'failed' || (outcome.kind === 'rejected' && orderMissing(outcome.status, resource)))
      return commit?.({ facts, resource, hash, outcome: 'failed' });
    if (outcome.kind === 'rejected') return commit?.({ facts, resource, hash, outcome: 'rejected' });
    return undefined;
  };
}

/** The flow rules' last word right before sending, with the decisions this run received. */
function beforeSendGuard(
  event: FlowEvent,
  decisions: ReadonlyMap<string, string>,
  rules: readonly FlowRule[],
) {
  return () => {
    for (const rule of rules) {
      const hit = rule.beforeSend?.(event, decisions);
      if (hit) return { code: hit.code, message: hit.message };
    }
    return undefined;
  };
}

/**
 * The sink of a run that sends (with a sender) or only writes --rejects (without): valid
 * records go to the sender in flow order, invalid ones to the rejects file.
 * `confirm` is asked once, before the first record is sent (by-hand records).
 */
export function sendingSink(
  parts: OutcomeParts,
  sender: Sender<SendContext> | undefined,
  decisions: ReadonlyMap<string, string>,
  options: { rules: readonly FlowRule[]; resend: boolean; confirm?: () => Promise<boolean> },
): RecordSink & { declined: boolean } {
  const settled = (earlier: string | undefined) =>
    !options.resend && (earlier === 'accepted' || earlier === 'rejected');
  let confirmed = options.confirm === undefined;
  const sink = {
    declined: false,
    needsBodies: sender !== undefined,
    needsRaw: parts.rejects !== undefined,
    alreadyDone: settled,
    invalid: (
      _resource: Resource,
      location: FlowEvent['location'],
      raw: RawRecord | undefined,
      issues: readonly Issue[],
    ) => parts.rejects?.write(location.file, raw, reasonOf(issues)),
    valid: async (
      event: FlowEvent,
      body: string | undefined,
      raw: RawRecord | undefined,
      earlier: string | undefined,
    ) => {
      if (!sender || sink.declined) return;
      if (sender.stopped) return parts.ledger.note('not-sent', NOT_SENT, 1);
      // A re-run is the recovery: what the service accepted is not sent again, nor an unchanged rejected record.
      if (settled(earlier)) {
        parts.ledger.addSkipped();
        if (earlier === 'rejected' && event.resource.role === 'creation') {
          sender.hold(
            event.facts.orderId,
            `its creation at ${event.location.file}:${event.location.line ?? '?'} was rejected by ` +
              `the service in an earlier run and is unchanged`,
          );
        }
        if (earlier === 'rejected') {
          parts.ledger.note(
            'rejected-before',
            'not sent again: records the service rejected in an earlier run, unchanged since; fix ' +
              'them (see --rejects) or add --resend (the run exits 1 until the service has them)',
            1,
          );
          // --rejects is written anew each run: the records still waiting for a fix stay in it.
          parts.rejects?.write(
            event.location.file,
            raw,
            'rejected by the service in an earlier run and unchanged since; fix it as the service ' +
              'said, or add --resend',
          );
        }
        return;
      }
      if (body === undefined) return;
      if (!confirmed) {
        confirmed = await options.confirm!();
        if (!confirmed) {
          sink.declined = true;
          return;
        }
      }
      const { resource, facts } = event;
      await sender.submit({
        endpoint: resource.name,
        method: resource.method,
        path: resource.path,
        body,
        orderId: facts.orderId,
        isCreation: resource.role === 'creation',
        location: event.location,
        context: { raw, facts, resource, hash: event.hash },
        guard: beforeSendGuard(event, decisions, options.rules),
      });
    },
  };
  return sink;
}

import { error } from '../core/issue.js';
import type { Facts } from '../flow/facts.js';
import type { FlowEvent } from '../flow/timeline.js';
import type { RawRecord } from '../readers/sourceRecord.js';
import type { ReportBuilder } from '../report/report.js';
import { resources } from '../resources/registry.js';
import type { RejectsWriter, ResultsWriter } from '../send/outputFiles.js';
import { parseBody } from '../send/responseBody.js';
import type { Outcome, Sender, SendJob } from '../send/sender.js';
import type { StateRecorder } from '../state/stateRecorder.js';
import type { RecordSink } from './checkRun.js';

export interface SendContext {
  raw: RawRecord | undefined;
  facts: Facts;
  hash: string;
  key: string;
}

export interface DeliveryParts {
  builder: ReportBuilder;
  rejects?: RejectsWriter;
  results?: ResultsWriter;
  recorder?: StateRecorder;
}

/** The id a results line names a record by. */
function primaryKey(facts: Facts): string {
  if (facts.kind === 'payment') return facts.paymentId;
  if (facts.kind === 'delivery') return facts.deliveryId;
  return facts.orderId;
}

function describeFailure(outcome: Exclude<Outcome, { kind: 'accepted' }>) {
  switch (outcome.kind) {
    case 'rejected':
      return ['rejected', error('rejected-by-service', '', `the service rejected it (HTTP ${outcome.status}): ${outcome.message}`, { hint: 'fix the record as the message says and send it again' })] as const;
    case 'vetoed':
      return ['rejected', error(outcome.code, '', outcome.message, { hint: 'do not send it' })] as const;
    case 'refused':
      return ['failed', error('key-refused', '', `the service refused the API key (HTTP ${outcome.status})`, { hint: 'check COLLECT_API_KEY or --api-key-file, and the base URL' })] as const;
    case 'failed':
      return ['failed', error('delivery-failed', '', `not delivered: ${outcome.reason}`, { hint: 'run the same command again to retry; check the service and the network' })] as const;
    default:
      return ['failed', error('not-sent', '', outcome.reason, { hint: 'run the same command again once the cause is fixed' })] as const;
  }
}

/** The service's answer for a results line: its JSON, or its text when it is not JSON. */
const answerBody = (text: string): unknown => (text === '' ? null : (parseBody(text) ?? text));

/** Records each outcome of sending in the report, the results and rejects files, and the state. */
export function outcomeHandler(parts: DeliveryParts, rejectedOrders: Set<string>) {
  const { builder, results, rejects, recorder } = parts;
  return (job: SendJob<SendContext>, outcome: Outcome): Promise<void> | undefined => {
    const { location } = job;
    const requested = 'attempts' in outcome;
    if (requested) {
      results?.write({
        endpoint: job.endpoint, key: job.context.key, file: location.file, line: location.line, index: location.index,
        status: 'status' in outcome ? outcome.status : null, attempts: outcome.attempts,
        ...('text' in outcome ? { body: answerBody(outcome.text) } : {}), ...(outcome.kind === 'failed' ? { error: outcome.reason } : {}),
      });
    }
    if (outcome.kind === 'accepted') {
      builder.addSent(job.endpoint, location, outcome.decision ? { kind: 'accepted', decision: outcome.decision } : { kind: 'accepted' }, true);
      if (outcome.decision === 'reject') rejectedOrders.add(job.orderId);
      return recorder?.add({ facts: job.context.facts, endpoint: job.endpoint, hash: job.context.hash, outcome: 'accepted', ...(outcome.decision ? { decision: outcome.decision } : {}) });
    }
    const [kind, issue] = describeFailure(outcome);
    builder.addSent(job.endpoint, location, { kind, issue }, requested);
    rejects?.write(location.file, job.context.raw, issue.message);
    // Journaled so that a re-run sends a rejected record again only once it has changed, and retries failures.
    if (outcome.kind === 'rejected' || outcome.kind === 'failed') {
      return recorder?.add({ facts: job.context.facts, endpoint: job.endpoint, hash: job.context.hash, outcome: outcome.kind === 'rejected' ? 'rejected' : 'failed' });
    }
    return undefined;
  };
}

/**
 * The sink of a run that sends (with a sender) or only writes --rejects (without): valid
 * records go to the sender in flow order, invalid ones to the rejects file.
 */
export function deliverySink(parts: DeliveryParts, sender: Sender<SendContext> | undefined, rejectedOrders: Set<string>, resend = false): RecordSink {
  const settled = (earlier: string | undefined) => !resend && (earlier === 'accepted' || earlier === 'rejected');
  return {
    needsBodies: sender !== undefined,
    needsRaw: parts.rejects !== undefined,
    alreadyDone: settled,
    invalid: (_endpoint, location, raw, reason) => parts.rejects?.write(location.file, raw, reason),
    valid: async (event: FlowEvent, body, raw, earlier) => {
      if (!sender || sender.refused) return;
      // A re-run is the recovery: what the service accepted is not sent again, nor an unchanged rejected record.
      if (settled(earlier)) {
        parts.builder.addSkipped();
        if (earlier === 'rejected') {
          parts.builder.note('rejected-before', 'not sent again: records the service rejected in an earlier run, unchanged since; fix them (see --rejects) or add --resend', 1);
        }
        return;
      }
      if (body === undefined) return;
      const resource = resources[event.endpoint];
      const orderId = event.facts.orderId;
      await sender.submit({
        endpoint: event.endpoint, method: resource.method, path: resource.path, body, orderId,
        isCreation: event.facts.kind === 'order', location: event.location,
        context: { raw, facts: event.facts, hash: event.hash, key: primaryKey(event.facts) },
        // §1.5 for decisions this very run received: the creation's answer arrives before its fraud marks go.
        ...(event.facts.kind === 'fraud' ? {
          guard: () => (rejectedOrders.has(orderId)
            ? { code: 'fraud-after-service-decline', message: `the service's own evaluation rejected order "${orderId}" in this run: a fraud mark must not be sent for it (§1.5)` }
            : undefined),
        } : {}),
      });
    },
  };
}

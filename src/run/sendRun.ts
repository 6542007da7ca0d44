import type { Readable } from 'node:stream';
import { error } from '../core/issue.js';
import type { ColumnMap } from '../convert/csvColumns.js';
import { contentHash } from '../flow/canonical.js';
import { extractFacts, type Facts } from '../flow/facts.js';
import { readRecords } from '../readers/readRecords.js';
import type { RawRecord } from '../readers/sourceRecord.js';
import { recordKey, type ReportBuilder } from '../report/report.js';
import { resources } from '../resources/registry.js';
import { isRecord } from '../schema/checks.js';
import type { RejectsWriter, ResultsWriter } from '../send/outputFiles.js';
import type { Outcome, Sender, SendJob } from '../send/sender.js';
import type { StateRecorder } from '../state/stateRecorder.js';
import type { RunInput } from './checkRun.js';

export interface SendContext {
  raw: RawRecord | undefined;
  facts: Facts | null;
  hash: string;
  key: string;
}

export interface SendRunOptions {
  inputs: readonly RunInput[];
  stdin: Readable;
  map?: ColumnMap;
  builder: ReportBuilder;
  /** Absent for a dry run that only writes --rejects. */
  sender?: Sender<SendContext>;
  recorder?: StateRecorder;
  rejects?: RejectsWriter;
  results?: ResultsWriter;
  /** Orders whose creation the service rejected in this run: their fraud marks must not go. */
  rejectedOrders: Set<string>;
  onRecord?: () => void;
}

/** The id a results line names a record by. */
function primaryKey(facts: Facts | null): string {
  if (!facts) return '';
  if (facts.kind === 'payment') return facts.paymentId;
  if (facts.kind === 'delivery') return facts.deliveryId;
  return facts.orderId;
}

/** Records each outcome in the report, the results and rejects files, and the state. */
export function outcomeHandler(options: Omit<SendRunOptions, 'sender'>) {
  const { builder, results, rejects, recorder, rejectedOrders } = options;
  return (job: SendJob<SendContext>, outcome: Outcome) => {
    const { location } = job;
    const requested = 'attempts' in outcome;
    if (requested) {
      results?.write({
        endpoint: job.endpoint, key: job.context.key, file: location.file, line: location.line, index: location.index,
        status: 'status' in outcome ? outcome.status : null, attempts: outcome.attempts,
        ...('text' in outcome ? { body: safeJson(outcome.text) } : {}), ...(outcome.kind === 'failed' ? { error: outcome.reason } : {}),
      });
    }
    if (outcome.kind === 'accepted') {
      builder.addSent(job.endpoint, location, outcome.decision ? { kind: 'accepted', decision: outcome.decision } : { kind: 'accepted' }, true);
      if (outcome.decision === 'reject') rejectedOrders.add(job.orderId);
      if (job.context.facts) {
        recorder?.add({ facts: job.context.facts, endpoint: job.endpoint, hash: job.context.hash, outcome: 'accepted', ...(outcome.decision ? { decision: outcome.decision } : {}) });
      }
      return;
    }
    const [kind, issue] = describeFailure(outcome);
    builder.addSent(job.endpoint, location, { kind, issue }, requested);
    rejects?.write(location.file, job.context.raw, issue.message);
  };
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

function safeJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Pass 3: reads the inputs again and sends every valid record (creations first, as the inputs
 * are ordered), writing invalid ones to --rejects. Identical repeats of a creation are skipped.
 */
export async function sendRun(options: SendRunOptions): Promise<void> {
  const { builder, sender, rejects } = options;
  const byRecord = builder.issuesByRecord();
  const { rejectedOrders } = options;
  for (const { endpoint, spec } of options.inputs) {
    const resource = resources[endpoint];
    for await (const record of readRecords(spec, resource, options.stdin, options.map)) {
      if (record.index === null) continue;
      if (sender?.refused) return;
      const issues = byRecord.get(recordKey(endpoint, record.file, record.index)) ?? [];
      const errors = issues.filter((issue) => issue.severity === 'error');
      if (errors.length > 0 || !isRecord(record.value)) {
        rejects?.write(record.file, record.raw, errors.map((issue) => `${issue.code}${issue.path ? ` ${issue.path}` : ''}: ${issue.message}`).join('; '));
        continue;
      }
      if (!sender) continue;
      if (issues.some((issue) => issue.code === 'duplicate-order')) {
        builder.addSkipped();
        continue;
      }
      const facts = extractFacts(endpoint, record.value);
      const orderId = facts?.orderId ?? `${record.file}#${record.index}`;
      await sender.submit({
        endpoint, method: resource.method, path: resource.path, body: JSON.stringify(record.value), orderId,
        isCreation: endpoint === 'order', location: { file: record.file, index: record.index, line: record.line },
        context: { raw: record.raw, facts, hash: contentHash(endpoint, record.value), key: primaryKey(facts) },
        // §1.5 for decisions this very run received: the creation's answer arrives before its fraud marks go.
        ...(endpoint === 'fraud' ? {
          guard: () => (rejectedOrders.has(orderId)
            ? { code: 'fraud-after-service-decline', message: `the service's own evaluation rejected order "${orderId}" in this run: a fraud mark must not be sent for it (§1.5)` }
            : undefined),
        } : {}),
      });
      options.onRecord?.();
    }
  }
}

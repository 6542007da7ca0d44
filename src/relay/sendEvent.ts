import type { Outcome, Sender } from '../send/sender.js';
import type { Clock } from '../send/clock.js';
import type { Remembered } from '../state/remembered.js';
import { locationOf, type Judgement } from './judgeEvent.js';
import type { OutboxEvent } from './outboxSource.js';
import type { RelayMetrics } from './relayMetrics.js';

/** What the relay does with an answer: commit it; the sender's slot frees once that resolves. */
export type OnAnswer = (outcome: Outcome, rows: readonly Remembered[]) => Promise<void>;

/** The state's rows for an answer: what the service now knows (accepted), or refused (rejected). */
function rowsOf(judged: Extract<Judgement, { kind: 'send' }>, outcome: Outcome): Remembered[] {
  if (outcome.kind !== 'accepted' && outcome.kind !== 'rejected') return [];
  const { facts, resource, hash } = judged;
  const decision = outcome.kind === 'accepted' ? outcome.decision : undefined;
  return [{ facts, resource, hash, outcome: outcome.kind, ...(decision ? { decision } : {}) }];
}

/**
 * Sends one checked event through the sender (its retries, backoff and order), times the answer,
 * and resolves once `onAnswer` has committed it: until then the event holds its slot.
 */
export function sendEvent(
  sender: Sender<(outcome: Outcome) => Promise<void>>,
  event: OutboxEvent,
  orderId: string,
  judged: Extract<Judgement, { kind: 'send' }>,
  file: string,
  timing: { clock: Clock; metrics?: RelayMetrics | undefined },
  onAnswer: OnAnswer,
): Promise<void> {
  const { resource } = judged;
  const { clock, metrics } = timing;
  const started = clock.now();
  return new Promise<void>((resolve, reject) => {
    sender
      .submit({
        endpoint: resource.name,
        method: resource.method,
        path: resource.path,
        body: event.text,
        orderId,
        isCreation: resource.role === 'creation',
        location: locationOf(event, file),
        context: async (outcome) => {
          try {
            metrics?.answerSeconds.observe({ endpoint: resource.name }, (clock.now() - started) / 1000);
            if ('attempts' in outcome && outcome.attempts > 1) metrics?.retries.inc(outcome.attempts - 1);
            await onAnswer(outcome, rowsOf(judged, outcome));
            resolve();
          } catch (cause) {
            reject(cause as Error);
          }
        },
      })
      .catch(reject);
  });
}

import type { RecordLocation } from '../core/issue.js';
import type { EndpointName } from '../resources/resource.js';
import type { Clock } from './clock.js';
import type { HttpClient } from './httpClient.js';
import { OrderHolds } from './orderHolds.js';
import type { Outcome } from './outcome.js';
import { isServiceError, parseBody, readDecision, serviceMessage } from './responseBody.js';
import { defaultBackoff, judgeStatus, parseRetryAfter, retryDelay } from './retryPolicy.js';
import {
  connectionSetupFailure,
  FAILED_RECORDS_IN_A_ROW,
  isUnreachable,
  keepsFailing,
  redirected,
  UNREACHABLE_ATTEMPTS,
  unknownPath,
  unreachable,
  waitTooLong,
  type SetupFailure,
} from './setupFailure.js';
import { endpointPath } from './serviceUrl.js';
import { TokenBucket } from './tokenBucket.js';

/** One record to send. */
export interface SendJob<Context = unknown> {
  endpoint: EndpointName;
  method: 'POST' | 'PUT';
  path: string;
  body: string;
  orderId: string;
  /** An order creation: the order's other calls wait until it is accepted. */
  isCreation: boolean;
  location: RecordLocation;
  context: Context;
  /** Checked right before sending, after the order's earlier calls: a flow rule's reason not to send. */
  guard?: () => { code: string; message: string } | undefined;
}

export type { HoldCause, Outcome } from './outcome.js';

export interface SenderOptions<Context> {
  client: HttpClient;
  concurrency: number;
  retries: number;
  timeoutMs: number;
  /** Requests per second, all attempts counted; undefined for no limit. */
  rate?: number;
  /**
   * The caller sends a call that was not accepted again itself, before its order's later calls (the relay):
   * an accepted creation frees its order, and a failed call holds nothing. A file run leaves a failed call to
   * the next run, so it holds the order's later calls until then, or a re-run would send them out of order.
   */
  requeuesFailures?: boolean;
  clock: Clock;
  random: () => number;
  /**
   * Called with each outcome; the request's slot is freed once a returned promise settles (its answer is
   * committed).
   */
  onOutcome: (job: SendJob<Context>, outcome: Outcome) => void | Promise<void>;
  /** Called when every slot waits (for a commit, or for an earlier call of its order): time to commit now. */
  onStall?: () => void;
}

/** A base URL that already ends in the version collect adds itself: every path becomes /v2/v2/... */
const doubledVersion = (base: URL) => /\/v2\/?$/i.test(base.pathname);

/**
 * Sends records with a bounded number in flight (submit waits for a free slot, so the reader
 * pauses), in flow order: an order's calls go one after another in input order, and none goes
 * before its creation is accepted; different orders go in parallel.
 */
export class Sender<Context = unknown> {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** The last call of each order in flight; resolves to whether the order's creation is accepted. */
  private readonly tails = new Map<string, Promise<boolean>>();
  private readonly bucket: TokenBucket | undefined;
  /** The service refused the key: nothing more is sent. */
  refused = false;
  /** A setup failure stopped the run (the first one seen): nothing more is sent. */
  halted: SetupFailure | undefined;
  /** An outcome could not be recorded (the state's disk is full): nothing more is sent, and drain() throws it. */
  private fatal: { cause: unknown } | undefined;
  retried = 0;
  /** Called as each request is to be made again (the HTML report's timeline puts it at that minute). */
  onRetry: (() => void) | undefined;
  /** Paths the service answered as existing (2xx or a record-level 4xx): a 404 there is about the record. */
  private readonly provenPaths = new Set<string>();
  /** Records in a row that failed after all their retries. */
  private failedInARow = 0;
  /** Slots whose job waits, for an earlier call of its order or for its answer to be committed. */
  private idle = 0;
  /** Orders whose later calls are held, however late they come, and why. */
  private readonly holds: OrderHolds;

  constructor(private readonly options: SenderOptions<Context>) {
    this.bucket = options.rate === undefined ? undefined : new TokenBucket(options.rate, options.clock.now());
    this.holds = new OrderHolds(options.requeuesFailures === true);
  }

  /** Nothing more is sent: the key was refused or a setup failure stopped the run. */
  get stopped(): boolean {
    return this.refused || this.halted !== undefined || this.fatal !== undefined;
  }

  async submit(job: SendJob<Context>): Promise<void> {
    if (this.active >= this.options.concurrency)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    const previous = this.tails.get(job.orderId);
    const done = () => {
      this.active--;
      this.waiting.shift()?.();
      if (this.tails.get(job.orderId) === tail) this.tails.delete(job.orderId);
    };
    const tail: Promise<boolean> = (
      previous ? this.waitFor(previous).then((ok) => this.run(job, ok)) : this.run(job, true)
    ).finally(done);
    this.tails.set(job.orderId, tail);
  }

  /** Counts a slot as idle while it waits, so that a commit is not left waiting for work that cannot come. */
  private async waitFor<T>(promise: Promise<T> | T): Promise<T> {
    this.idle++;
    if (this.idle >= this.active) this.options.onStall?.();
    try {
      return await promise;
    } finally {
      this.idle--;
    }
  }

  /** Sends one record once the order's earlier calls are done; resolves to whether the order's creation is accepted. */
  private async run(job: SendJob<Context>, creationOk: boolean): Promise<boolean> {
    let outcome: Outcome;
    if (this.refused) outcome = { kind: 'not-sent', reason: 'not sent: the service refused the API key' };
    else if (this.halted || this.fatal) outcome = this.notSent();
    else if (!creationOk || (!job.isCreation && this.holds.blocks(job.orderId)))
      outcome = { kind: 'blocked', ...this.holds.why(job.orderId) };
    else {
      const veto = job.guard?.();
      outcome = veto ? { kind: 'vetoed', ...veto } : await this.deliver(job);
    }
    try {
      // Most answers are kept without waiting: no await, no idle slot counted.
      const committed = this.options.onOutcome(job, outcome);
      if (committed) await this.waitFor(committed);
    } catch (cause) {
      this.fatal ??= { cause };
      return false;
    }
    this.holds.note(job, outcome);
    return job.isCreation ? outcome.kind === 'accepted' : creationOk;
  }

  /**
   * Holds every later call of an order: its creation will not be accepted in this run (an earlier run's
   * rejection, unchanged).
   */
  hold(orderId: string, why: string): void {
    this.holds.hold(orderId, why);
  }

  /** Waits until every submitted record has its outcome; throws when one could not be recorded (the state failed). */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.allSettled([...this.tails.values()]);
    if (this.fatal) throw this.fatal.cause;
  }

  private async throttle(): Promise<void> {
    if (!this.bucket) return;
    for (
      let wait = this.bucket.take(this.options.clock.now());
      wait > 0;
      wait = this.bucket.take(this.options.clock.now())
    ) {
      await this.options.clock.sleep(wait);
    }
  }

  private notSent(): Outcome {
    return this.refused
      ? { kind: 'not-sent', reason: 'not sent: the service refused the API key' }
      : {
          kind: 'not-sent',
          reason: `not sent: the run stopped (${this.halted?.summary ?? 'setup failure'})`,
        };
  }

  /** Trips the breaker: this record failed for a reason no record can fix, and nothing more is sent. */
  private halt(failure: SetupFailure, attempts: number): Outcome {
    // One record carries the failure; the others in flight when it struck are simply not sent.
    if (this.halted) return this.notSent();
    this.halted = failure;
    return { kind: 'failed', reason: failure.summary, attempts };
  }

  private async deliver(job: SendJob<Context>): Promise<Outcome> {
    const { client, clock, random, retries, timeoutMs } = this.options;
    let unreachableInARow = 0;
    for (let attempt = 1; ; attempt++) {
      if (this.bucket) await this.throttle();
      const result = await client.send(job.method, job.path, job.body);
      let reason: string;
      let retryAfter: number | undefined;
      if (result.kind === 'answer') {
        unreachableInARow = 0;
        const { status } = result;
        if (status >= 300 && status < 400) {
          const location = result.headers.location;
          return this.halt(
            redirected(
              status,
              Array.isArray(location) ? location[0] : location,
              job.method,
              job.path,
              endpointPath(client.base, job.path),
            ),
            attempt,
          );
        }
        // A 404/405 in the service's own error format is about the record; any other, before the path proved
        // itself, is the address.
        if (
          (status === 404 || status === 405) &&
          !this.provenPaths.has(job.path) &&
          (doubledVersion(client.base) || !isServiceError(parseBody(result.text)))
        ) {
          return this.halt(
            unknownPath(status, job.method, endpointPath(client.base, job.path), client.base),
            attempt,
          );
        }
        const verdict = judgeStatus(status);
        if (verdict === 'accepted') {
          this.provenPaths.add(job.path);
          this.failedInARow = 0;
          const decision = job.isCreation ? readDecision(parseBody(result.text)) : undefined;
          return {
            kind: 'accepted',
            status,
            text: result.text,
            attempts: attempt,
            ...(decision ? { decision } : {}),
            ...(result.truncated ? { truncated: true } : {}),
          };
        }
        if (verdict === 'refused') {
          this.refused = true;
          return { kind: 'refused', status, attempts: attempt };
        }
        if (verdict === 'reject') {
          this.provenPaths.add(job.path);
          this.failedInARow = 0;
          return {
            kind: 'rejected',
            status,
            text: result.text,
            message: serviceMessage(parseBody(result.text), result.text),
            attempts: attempt,
            ...(result.truncated ? { truncated: true } : {}),
          };
        }
        reason = `HTTP ${status}`;
        const header = result.headers['retry-after'];
        retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header, clock.now());
        if (retryAfter !== undefined && retryAfter > defaultBackoff.maxMs)
          return this.halt(waitTooLong(retryAfter, defaultBackoff.maxMs), attempt);
      } else if (result.kind === 'timeout') {
        unreachableInARow = 0;
        reason = `no answer within ${timeoutMs} ms`;
      } else {
        const setup = connectionSetupFailure(result.code, client.base);
        if (setup) return this.halt(setup, attempt);
        unreachableInARow = isUnreachable(result.code) ? unreachableInARow + 1 : 0;
        if (unreachableInARow >= Math.min(UNREACHABLE_ATTEMPTS, retries + 1))
          return this.halt(unreachable(result.code, client.base, unreachableInARow), attempt);
        reason = result.message;
      }
      if (attempt > retries) {
        const failed: Outcome = {
          kind: 'failed',
          reason: `${reason} (after ${attempt} attempts)`,
          attempts: attempt,
        };
        if (++this.failedInARow >= FAILED_RECORDS_IN_A_ROW) this.halted ??= keepsFailing(reason);
        return failed;
      }
      if (this.stopped) return this.notSent();
      this.retried++;
      this.onRetry?.();
      await clock.sleep(retryDelay(attempt, random, retryAfter));
      if (this.stopped) return this.notSent();
    }
  }
}

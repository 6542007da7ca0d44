import { Sender, type Outcome, type SenderOptions } from '../send/sender.js';
import type { Remembered } from '../state/remembered.js';
import { CommitGroups } from './commitGroups.js';
import {
  answeredFate,
  awaitsCreation,
  CREATION_NOT_IN,
  endpointOf,
  fateName,
  heldFate,
  unsentFate,
} from './eventFate.js';
import { judgeEvent, orderOf } from './judgeEvent.js';
import { sendEvent } from './sendEvent.js';
import { OrderQueues, type QueuedEvent } from './orderQueues.js';
import type { OutboxEvent, Settlement } from './outboxSource.js';
import { MAX_QUEUED_BYTES } from './eventLimits.js';
import { GiveUp, STOP_DEADLINE_MS } from './giveUp.js';
import { metricEndpoint, sleep, type RelayEnd, type RelayOptions } from './relayOptions.js';

/** Events held in memory per replica; a fetch asks for this many pending ones. */
const QUEUE_MAX = 2000;
/** Fetches at most this often on NOTIFYs (a burst of inserts is read in pages, not row by row). */
const FETCH_GAP_MS = 25;

interface Queued extends QueuedEvent {
  event: OutboxEvent;
  /** The event names no order (its orderId is its own id): it goes alone. */
  unordered: boolean;
  /** Times it was put back because its order's creation was not in yet (awaitsCreation). */
  waits?: number;
}

/**
 * `collect relay`: forwards an outbox's events to the service as they come, with the checks and
 * order of every run (judgeEvent.ts, orderQueues.ts) and the sender's retries; an event's fate is
 * committed before its slot frees, so a kill -9 resends at most `concurrency` events.
 */
export class Relay {
  private readonly queues = new OrderQueues<Queued>();
  private readonly sender: Sender<(outcome: Outcome) => Promise<void>>;
  private readonly commits: CommitGroups;
  private held = new Map<string, number>();
  private paused = false;
  private tick = new AbortController();
  private readonly end: RelayEnd = { dead: 0, sent: 0 };
  private lastFetch = -Infinity;
  private lastBeat = -Infinity;
  private lastFull = false;
  /** The relay has read its source and serves: /readyz. */
  ready = false;
  /** When the loop last went round (ms): /healthz fails when it stalls. */
  lastLoop = 0;
  /** When the relay stops waiting for what is in flight: a second signal, or the deadline after a stop or a failure. */
  private readonly giveUp: GiveUp;

  constructor(private readonly options: RelayOptions) {
    this.commits = new CommitGroups(
      async (group) => {
        const rows = group.flatMap((commit) => commit.rows);
        if (rows.length > 0) {
          options.state.remember(rows, new Date(options.clock.now()));
          // A state empty at start would otherwise go on reading as empty (its counts are read once).
          options.state.recount?.();
          await options.state.durable();
        }
        await options.source.settle(group.map((commit) => commit.settled));
      },
      () => this.queues.inFlight > 1,
    );
    const senderOptions: SenderOptions<(outcome: Outcome) => Promise<void>> = {
      client: options.client,
      concurrency: options.concurrency,
      retries: options.retries,
      timeoutMs: options.timeoutMs,
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      clock: options.clock,
      random: options.random,
      // The slot frees once the outcome is committed: at most `concurrency` events are sent but not settled.
      onOutcome: (job, outcome) => job.context(outcome),
      requeuesFailures: true,
    };
    this.sender = new Sender(senderOptions);
    this.giveUp = new GiveUp(options.abandon);
    options.stop.addEventListener('abort', () => this.giveUp.start(), { once: true });
  }

  /** The relay can do its work: nothing failed, and it has not given up on what is in flight (/healthz, /readyz). */
  get working(): boolean {
    return this.end.failure === undefined && !this.giveUp.given;
  }

  get inFlight(): number {
    return this.queues.inFlight;
  }

  /**
   * Relays until stopped, or until the source ends or fails; then lets what is in flight finish, unless
   * it gives up first (a second stop signal, the deadline): what is unsettled then stays pending.
   */
  async run(): Promise<RelayEnd> {
    if (this.options.stop.aborted) this.giveUp.start();
    // A loop waiting on a database that does not answer is left behind (the source is closed after).
    await Promise.race([this.loop(), this.giveUp.reached]);
    this.ready = false;
    await this.drain();
    this.giveUp.clear();
    if (this.queues.inFlight > 0) this.end.unsettled = this.queues.inFlight;
    if (this.sender.halted) this.end.halted = this.sender.halted;
    if (this.sender.refused) this.end.refused = true;
    return this.end;
  }

  private async loop(): Promise<void> {
    const { source, stop, clock, pollMs } = this.options;
    try {
      this.held = await source.heldOrders();
      for (;;) {
        if (stop.aborted || this.sender.stopped || !this.working) break;
        if (source.lost !== undefined) throw source.lost;
        const now = clock.now();
        this.lastLoop = now;
        if (this.options.sharing && now - this.lastBeat >= pollMs) {
          this.lastBeat = now;
          if (await this.options.sharing.rebalance(() => this.drain())) {
            await this.afterRebalance();
            const buckets = this.options.sharing.buckets;
            this.options.log.write({
              state: 'buckets',
              buckets,
              message: `serving ${buckets} order buckets`,
            });
          }
        }
        this.ready = true;
        // Every read starts from the oldest pending event (pgOutbox.ts says why): at each poll, after a
        // NOTIFY (at most every FETCH_GAP_MS), and for a backlog's next page; none while the queue is well filled.
        const roomy = this.roomy();
        const news = this.wantFetch && clock.now() - this.lastNews >= FETCH_GAP_MS;
        if (now - this.lastFetch >= pollMs || (roomy && (this.lastFull || news))) await this.fetch();
        else if (news) this.wantFetch = false;
        this.dispatch();
        if (source.ended && this.queues.size === 0) break;
        this.tick = new AbortController();
        const wait = this.wantFetch ? FETCH_GAP_MS : Math.max(1, pollMs - (clock.now() - this.lastFetch));
        const woken = AbortSignal.any([stop, this.tick.signal]);
        // A well-filled queue waits for its own events to settle, not for news it would not read now.
        if (!this.roomy()) await sleep(pollMs, woken);
        else if (await source.wait(wait, woken)) this.wantFetch = true;
      }
    } catch (cause) {
      this.fail(cause);
    }
  }

  /** The queue is less than half full, in events and in bytes: a backlog's next page may be read. */
  private roomy(): boolean {
    return this.queues.size < QUEUE_MAX / 2 && this.queues.bytes < MAX_QUEUED_BYTES / 2;
  }

  /** The outbox or the state failed: nothing new starts, and what is in flight has until the deadline. */
  private fail(cause: unknown): void {
    this.end.failure ??= cause;
    this.giveUp.start();
    this.tick.abort();
  }

  private wantFetch = false;
  private lastNews = -Infinity;

  private async fetch(): Promise<void> {
    const { source, registry } = this.options;
    this.lastFetch = this.lastNews = this.options.clock.now();
    this.wantFetch = false;
    const fetch = this.queues.beginFetch();
    const room = QUEUE_MAX - this.queues.size;
    // Memory is bounded by bytes too: a read asks for what is left of MAX_QUEUED_BYTES (bodies over the limit
    // are not read).
    const bytes = MAX_QUEUED_BYTES - this.queues.bytes;
    if (room <= 0 || bytes <= 0) return void (this.lastFull = true);
    const rows = await source.pending(room, this.queues.ids, bytes);
    this.lastFull = rows.length >= room || rows.reduce((sum, row) => sum + row.text.length, 0) >= bytes / 2;
    this.queues.addFetched(
      fetch,
      rows.map((event) => {
        const found = orderOf(event.endpoint, event.body, registry);
        // An event naming no order cannot wait for one: it goes alone, and is dead-lettered with why.
        return {
          id: event.id,
          orderId: found?.orderId ?? `#${event.id}`,
          creation: found?.resource.role === 'creation',
          size: event.text.length,
          event,
          unordered: found === undefined,
        };
      }),
    );
  }

  private dispatch(): void {
    if (this.paused || this.options.stop.aborted || this.sender.stopped || !this.working) return;
    const free = this.options.concurrency - this.queues.inFlight;
    if (free <= 0) return;
    for (const queued of this.queues.take(free, this.options.clock.now()))
      void this.process(queued).catch((cause: unknown) => {
        // Its slot frees (it stays pending, sent again by the next start), so that the relay can stop.
        if (this.queues.isInFlight(queued)) this.queues.defer(queued, this.options.clock.now());
        this.fail(cause);
      });
  }

  /** Lets what is in flight finish (no new event starts meanwhile), unless the relay gives up. */
  private async drain(): Promise<void> {
    this.paused = true;
    const started = this.options.clock.now();
    while (this.queues.inFlight > 0 && !this.giveUp.given) {
      // Waiting for answers is not a stall, up to the longest a request with its retries takes.
      const now = this.options.clock.now();
      if (now - started < STOP_DEADLINE_MS) this.lastLoop = now;
      await sleep(10, this.giveUp.signal);
    }
    this.paused = false;
  }

  /** The buckets served changed: what is queued may no longer be ours, and what others wrote must be read. */
  private async afterRebalance(): Promise<void> {
    this.queues.drop(() => true);
    await this.options.state.refresh?.();
    this.held = await this.options.source.heldOrders();
    this.lastFetch = -Infinity;
  }

  private async process(queued: Queued): Promise<void> {
    const { event, orderId } = queued;
    const { state, registry, rules, source, clock } = this.options;
    const heldBy = this.held.get(orderId);
    if (heldBy !== undefined && !queued.creation)
      return this.finish(queued, undefined, heldFate(orderId, source.file, heldBy));
    const judged = judgeEvent(event, source.file, registry, state, rules, new Date(clock.now()));
    if (judged.kind === 'invalid' && awaitsCreation(judged.issues, queued.waits ?? 0)) {
      queued.waits = (queued.waits ?? 0) + 1;
      return this.defer(queued, endpointOf(event), CREATION_NOT_IN);
    }
    if (judged.kind !== 'send')
      return this.finish(
        queued,
        judged.kind === 'repeat' ? judged.resource.name : endpointOf(event),
        unsentFate(judged),
      );
    const endpoint = judged.resource.name;
    await sendEvent(this.sender, event, orderId, judged, source.file, this.options, (outcome, rows) =>
      this.settleOutcome(queued, endpoint, outcome, rows),
    );
  }

  /** Commits the outcome of a sent event with the state's `rows` (a failure is deferred: nothing to commit). */
  private async settleOutcome(
    queued: Queued,
    endpoint: string,
    outcome: Outcome,
    rows: readonly Remembered[],
  ): Promise<void> {
    const fate = answeredFate(outcome);
    if (fate) {
      if (outcome.kind === 'accepted' && queued.event.createdAt)
        this.options.metrics?.acceptedAfterInsertSeconds.observe(
          (this.options.clock.now() - queued.event.createdAt.getTime()) / 1000,
        );
      return this.finish(queued, endpoint, fate.settlement, fate.status, rows);
    }
    // Not sent for a passing reason (retries spent, the run halted): it stays pending, first of its order.
    this.defer(queued, endpoint, 'reason' in outcome ? outcome.reason : outcome.kind);
  }

  /** Puts the event back, first of its order, which waits 1 s doubling to 30 s before it is tried again. */
  private defer(queued: Queued, endpoint: string | undefined, why: string): void {
    const delay = this.queues.defer(queued, this.options.clock.now());
    this.options.log.write({
      state: 'deferred',
      id: queued.id,
      ...(endpoint === undefined ? {} : { endpoint }),
      order: queued.orderId,
      message: `${why}; tried again in ${Math.round(delay / 1000)} s`,
    });
    this.tick.abort();
  }

  /** Commits an event's fate, then frees its order for its next event. */
  private async finish(
    queued: Queued,
    endpoint: string | undefined,
    settlement: Settlement,
    status?: number,
    rows: readonly Remembered[] = [],
  ): Promise<void> {
    try {
      await this.commits.commit({
        rows,
        settled: { event: queued.event, orderId: queued.orderId, settlement },
      });
    } catch (cause) {
      // Not kept (the outbox update failed): it stays pending, and its slot frees so that the relay can stop.
      this.queues.defer(queued, this.options.clock.now());
      return this.fail(cause);
    }
    if (queued.creation) {
      if (settlement.state === 'dead') this.held.set(queued.orderId, queued.id);
      else if (settlement.state === 'sent') this.held.delete(queued.orderId);
    }
    const outcome = fateName(settlement);
    if (settlement.state === 'sent') this.end.sent++;
    else this.end.dead++;
    this.options.metrics?.events.inc({ endpoint: metricEndpoint(endpoint, this.options.registry), outcome });
    this.options.log.write({
      state: outcome,
      id: queued.id,
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(queued.unordered ? {} : { order: queued.orderId }),
      ...(status === undefined ? {} : { status }),
      ...(settlement.state === 'sent'
        ? {}
        : { code: settlement.reason.code, message: settlement.reason.message }),
    });
    this.queues.settle(queued);
    this.tick.abort();
  }
}

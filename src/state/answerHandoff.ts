import type { AnswerLog } from './answerLog.js';
import type { BackgroundWriter } from './backgroundWriter.js';
import { outcomeCode, unixSeconds } from './compactRows.js';
import { rememberRecords, type Remembered } from './remembered.js';
import { StateError, stateError } from './stateErrors.js';

/** Answers a sending run lists before the writer commits them in one transaction. */
const HANDOFF_ANSWERS = 16_384;
/** ... or once the first of them is this old: a slow run's state stays current for the runs that read it without the lock. */
const HANDOFF_MS = 1000;

/**
 * A locked run's answers on their way into a state file: each group is written to the answer
 * log at once (one write: kept for good against kill -9), and the writer thread is handed the
 * answers listed in batches of HANDOFF_ANSWERS (or every HANDOFF_MS). Fewer, larger commits
 * write each page of the journal's B-tree to the WAL once per batch, not once per few answers.
 */
export class AnswerHandoff {
  private listed = 0;
  /** When the first answer the writer has not been handed was listed. */
  private since = 0;

  constructor(private readonly path: string, readonly log: AnswerLog) {}

  /**
   * Lists the records' writes with `writer` and in the answer log. False when another run claimed
   * the log (this run's lock was taken over while it was stopped): everything listed is then
   * committed here, and the handoff is over.
   */
  list(writer: BackgroundWriter, records: readonly Remembered[], now: Date): boolean {
    const at = unixSeconds(now);
    rememberRecords(records, writer.writes, (hash, _endpoint, _orderId, outcome) => writer.journal(hash, outcomeCode(outcome), at));
    let kept: boolean;
    try {
      kept = writer.logListed();
    } catch (cause) {
      throw stateError(cause, this.path) ?? new StateError(`cannot write the answers beside the state file ${this.path} (${(cause as Error).message})`, 'free space on that disk or use --state on another one, then run the same command again: what was not saved is sent again');
    }
    if (!kept) {
      writer.drain();
      return false;
    }
    if (this.listed === 0) this.since = now.getTime();
    this.listed += records.length;
    if (this.listed < HANDOFF_ANSWERS && now.getTime() - this.since < HANDOFF_MS) {
      writer.poll();
      return true;
    }
    this.listed = 0;
    writer.send();
    return true;
  }
}

import type { Issue, RecordLocation } from '../core/issue.js';
import type { OrderFlow } from './orderFlow.js';

/** The outcome of sending one record, as the report counts it. */
export type SendResult =
  | { kind: 'accepted'; decision?: string }
  | { kind: 'rejected'; issue: Issue }
  | { kind: 'failed'; issue: Issue };

/** What happened in a run, in the order it happened: the report is a fold over these (ReportBuilder.apply). */
export type RunEvent =
  /** A record as read, with its issues (none for a valid one); index null is a problem of its file. */
  | {
      kind: 'read';
      endpoint: string;
      location: RecordLocation;
      issues: readonly Issue[];
      /**
       * The fields of its endpoint's coverage list it carries (report/fieldCoverage.ts), when it was read as
       * a record.
       */
      coverage?: number;
    }
  /** Issues found later about a record already read (the flow rules): a valid record they fault becomes invalid. */
  | {
      kind: 'judged';
      endpoint: string;
      location: RecordLocation;
      issues: readonly Issue[];
      wasValid: boolean;
    }
  /** A record sent (or that could not be); `requested` when a request was made. */
  | { kind: 'sent'; endpoint: string; location: RecordLocation; result: SendResult; requested: boolean }
  /** A valid record not sent because an earlier run or this one already sent it. */
  | { kind: 'skipped' }
  /** Requests made again after a timeout, a dropped connection, a 429 or a 5xx. */
  | { kind: 'retried'; count: number }
  /**
   * One order's records as the flow rules saw them, with what the state knew (the flow coverage); `replaces`
   * the flow counted earlier for the same order.
   */
  | { kind: 'order'; flow: OrderFlow; replaces?: OrderFlow }
  /** Something about the run as a whole, said once; repeated notes add up their counts. */
  | { kind: 'note'; code: string; message: string; count?: number };

/** Why a call was not sent although nothing was wrong with it: its order's creation, or an earlier call, is missing. */
export type HoldCause = 'creation' | 'earlier-call';

/** What became of one record handed to the sender. */
export type Outcome =
  | { kind: 'accepted'; status: number; text: string; attempts: number; decision?: string; truncated?: true }
  | { kind: 'rejected'; status: number; text: string; message: string; attempts: number; truncated?: true }
  | { kind: 'failed'; reason: string; attempts: number }
  | { kind: 'refused'; status: number; attempts: number }
  /** Not sent: its order's creation was not accepted, or an earlier call of its order failed in this run. */
  | { kind: 'blocked'; reason: string; by: HoldCause }
  | { kind: 'vetoed'; code: string; message: string }
  | { kind: 'not-sent'; reason: string };

import type { Issue } from '../core/issue.js';

/** What reading one cell gives: its value, an issue, or no value. */
export type CellOutcome =
  | { ok: true; value: unknown }
  | { ok: false; issue: Omit<Issue, 'path'> }
  /** No value; `issue` (a warning) says why when the cell was not empty. */
  | { ok: true; absent: true; issue?: Omit<Issue, 'path'> };

import type { Readable } from 'node:stream';
import type { InputSpec } from '../decode/openInput.js';
import type { RunState } from '../state/runState.js';
import { readDecisionRows } from './decisionRows.js';

/** Rows written to the state per transaction. */
const BATCH = 5000;

/** What a load did: how many decisions of each value it loaded, and the rows it could not (`FILE:LINE: why`). */
export interface DecisionsLoaded {
  counts: Map<string, number>;
  problems: string[];
}

/**
 * Loads the files' decisions into the state, a batch per transaction; a row that is no decision is listed,
 * the others load.
 */
export async function loadDecisions(
  specs: readonly InputSpec[],
  stdin: Readable,
  state: RunState,
  now: () => Date,
): Promise<DecisionsLoaded> {
  const counts = new Map<string, number>();
  const problems: string[] = [];
  const source = specs.map((s) => s.name).join(', ');
  let batch: { orderId: string; decision: string }[] = [];
  for (const spec of specs) {
    for await (const row of readDecisionRows(spec, stdin)) {
      if ('problem' in row) {
        problems.push(`${row.file}:${row.line}: ${row.problem}`);
        continue;
      }
      batch.push(row);
      counts.set(row.decision, (counts.get(row.decision) ?? 0) + 1);
      if (batch.length >= BATCH) {
        state.rememberDecisions(batch, source, now());
        batch = [];
      }
    }
  }
  state.rememberDecisions(batch, source, now());
  return { counts, problems };
}

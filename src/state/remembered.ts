import { createHash } from 'node:crypto';
import type { Facts, Resource, StateWrites } from '../resources/resource.js';
import type { Outcome } from './compactRows.js';

/** What a run learned about one record, to remember for later runs. */
export interface Remembered {
  facts: Facts;
  resource: Resource;
  hash: string;
  /**
   * validated (a dry run's own namespace), or what the service answered; only the first two change the
   * state's facts.
   */
  outcome: Outcome;
  /** The service's evaluation decision, for an accepted creation that asked for one. */
  decision?: string;
}

/** The namespace of a service base URL; a dry run without a URL keeps its own. */
export function namespaceOf(baseUrl: string | undefined): string {
  if (!baseUrl) return 'dry-run';
  const normal = baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  return `service-${createHash('sha256').update(normal).digest('hex').slice(0, 16)}`;
}

/** Writes the journal of a record. */
export type JournalWrite = (
  hash: string,
  endpoint: string,
  orderId: string,
  outcome: Remembered['outcome'],
) => void;

/** What any state remembers of records, told to its writes and journal: one rule for SQLite and PostgreSQL. */
export function rememberRecords(
  records: readonly Remembered[],
  writes: StateWrites,
  journal: JournalWrite,
): void {
  for (const { facts, resource, hash, outcome, decision } of records) {
    if (outcome === 'rejected' || outcome === 'failed') {
      journal(hash, resource.name, facts.orderId, outcome);
      continue;
    }
    resource.remember(facts, writes, hash, decision);
    for (const table of resource.tables ?? [])
      for (const row of table.rows(facts)) writes.addRow(table, facts.orderId, row);
    // A dry run's creations are recognised by their hash in orders; sent ones are journaled too.
    if (resource.role !== 'creation' || outcome === 'accepted')
      journal(hash, resource.name, facts.orderId, outcome);
  }
}

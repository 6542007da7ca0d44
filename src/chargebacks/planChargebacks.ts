import type { Readable } from 'node:stream';
import { openState } from '../state/openState.js';
import type { InputSpec } from '../decode/inputSpec.js';
import { matchChargebacks, type MatchResult, type OrderFacts, type Owner } from './matchChargebacks.js';
import type { ReadHooks } from '../decode/mappedCsvRecords.js';
import type { IndexedKey } from './matchSources.js';
import { keyOf, readOrdersExport } from './ordersExport.js';
import { placeholderNote } from './placeholderId.js';
import { reportKeys, stateCardOrders } from './wantedKeys.js';
import type { ReasonTable } from './reasonCategories.js';
import { withClassifiedRows } from './classifiedRows.js';
import { readChargebacks, type ReportFile, type ReportInput, type ReportRow } from './readChargebacks.js';

export interface PlanRequest {
  reports: readonly ReportInput[];
  /** `--orders FILE`: an export that joins order ids to the keys the state does not know (ARN, authorisation). */
  orders?: InputSpec;
  /** `--orders-map M`: how that export's rows become orders (its `endpoint: order` entries). */
  ordersMap?: ReadHooks;
  /** The state to match through (null: none), and its service. */
  stateDir: string | null;
  baseUrl?: string;
  table: ReasonTable;
  onlyFraud: boolean;
  maxRecordBytes: number;
  /** Keep each row's text, for --rejects. */
  keepRaw: boolean;
}

export interface Plan {
  rows: ReportRow[];
  /** Each report's format and row count (source-files.md A.0.9). */
  files: ReportFile[];
  match: MatchResult;
  /** What the reader should know about the matching itself (no state, no orders file). */
  notes: string[];
}

/**
 * Reads the reports, finds each row's order through the state (one pass over its payments) and
 * `--orders FILE`, and decides every row and the marks to send (matchChargebacks.ts, pure).
 * The state is only read here; the marks are sent by the run, which locks and writes it.
 */
export async function planChargebacks(
  request: PlanRequest,
  stdin: Readable,
  now: Date,
  signal?: AbortSignal,
): Promise<Plan> {
  const limits = { maxRecordBytes: request.maxRecordBytes, ...(signal ? { signal } : {}) };
  const { rows, files } = await readChargebacks(request.reports, stdin, {
    ...limits,
    now,
    keepRaw: request.keepRaw,
  });
  const wanted = reportKeys(rows);
  const { acquirerIds, placeholderRows } = wanted;
  // By acquirer id, then by order: an order named by the export and the state is one owner (no scan).
  const owners = new Map<string, Map<string, Owner>>();
  const add = (acquirerId: string, owner: Owner) => {
    const byOrder = owners.get(acquirerId) ?? new Map<string, Owner>();
    if (!byOrder.has(owner.orderId)) byOrder.set(owner.orderId, owner);
    owners.set(acquirerId, byOrder);
  };
  const exported = request.orders
    ? await readOrdersExport(request.orders, stdin, wanted, {
        ...limits,
        ...(request.ordersMap ? { map: request.ordersMap } : {}),
      })
    : undefined;
  for (const [acquirerId, list] of exported?.owners ?? []) for (const owner of list) add(acquirerId, owner);
  const state = await openState(request.stateDir, request.baseUrl, { locking: false, readOnly: true });
  try {
    for (const found of await state.acquirerOwners(acquirerIds))
      add(found.acquirerId, { orderId: found.orderId, paymentId: found.paymentId, source: 'state' });
    const ownerLists = new Map([...owners].map(([id, byOrder]) => [id, [...byOrder.values()]]));
    const stateKeyed = await stateCardOrders(state, wanted.cards);
    // An order the export and the state both name is one order: the union of what each key finds.
    const ordersByKey = (kind: IndexedKey, key: string): string[] => {
      const text = keyOf(kind, key);
      return [...new Set([...(exported?.keyed.get(text) ?? []), ...(stateKeyed.get(text) ?? [])])];
    };
    const facts = new Map<string, OrderFacts | null>();
    const order = (orderId: string): OrderFacts | null => {
      if (!facts.has(orderId)) {
        const prior = state.priorOrder(orderId);
        facts.set(orderId, prior ? { decision: prior.decision, fraudTypes: prior.fraudTypes } : null);
      }
      return facts.get(orderId)!;
    };
    const match = withClassifiedRows(rows, request.table, (chargebacks) =>
      matchChargebacks(
        chargebacks,
        {
          owners: (acquirerId) => ownerLists.get(acquirerId) ?? [],
          order,
          knowsOrders: state.hasOrders || exported !== undefined,
          orderKnown: (orderId) => exported?.orders.has(orderId) === true || order(orderId) !== null,
          ordersByKey,
        },
        { table: request.table, onlyFraud: request.onlyFraud },
      ),
    );
    const notes: string[] = [];
    if (request.stateDir === null && !request.orders)
      notes.push(
        'no state and no --orders file to match acquirer ids against: give --base-url (the service ' +
          'whose state holds the orders), --state, or --orders FILE',
      );
    if (placeholderRows > 0) notes.push(placeholderNote('report rows', placeholderRows));
    if (exported && exported.placeholders > 0)
      notes.push(placeholderNote('payments of the --orders file', exported.placeholders));
    return { rows, files, match, notes };
  } finally {
    await state.close();
  }
}

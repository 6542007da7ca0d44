import type { Readable } from 'node:stream';
import * as z from 'zod';
import type { InputSpec } from '../decode/inputSpec.js';
import type { ReadHooks } from '../decode/mappedCsvRecords.js';
import { readRecords } from '../decode/readRecords.js';
import { noChecks, type Resource } from '../resources/resource.js';
import { exportedPayments, type ExportedPayment } from './exportedPayments.js';
import type { Owner } from './matchChargebacks.js';
import { authKey, cardKey, digitsKey } from './matchKeys.js';
import type { IndexedKey } from './matchSources.js';
import { isPlaceholderId } from './placeholderId.js';
import { authorizationParts, cardParts } from './rowKeys.js';

/** An export of orders: any columns; collect reads the keys of exportedPayments.ts. */
const exportResource: Resource = {
  name: 'orders export',
  method: 'POST',
  path: '',
  summary: 'an export of orders with their acquirer ids',
  role: 'update',
  orderField: 'order_id',
  accepted: { status: 200, message: '' },
  schema: z.looseObject({}),
  checks: noChecks,
  example: { order_id: 'ORD-1001', acquirer_id: 'ACQ-778899' },
  facts: () => null,
  remember: () => undefined,
};

/** An indexed key's text in a set of wanted keys: its kind, then its normal form on one day. */
export const keyOf = (kind: IndexedKey, key: string): string => `${kind}:${key}`;

/** The indexed keys an exported payment carries, each on its own day (both the NSU's and the terminal's form). */
export function exportedKeys(payment: ExportedPayment): string[] {
  const keys: string[] = [];
  if (payment.arn !== undefined && payment.arn.trim() !== '') keys.push(keyOf('arn', digitsKey(payment.arn)));
  const card = cardParts(payment);
  if (card) keys.push(keyOf('card', cardKey(card.lastFour, card.cents, card.day)));
  for (const variant of [
    { ...payment, terminal_id: undefined },
    { ...payment, nsu: undefined },
  ]) {
    const auth = authorizationParts(variant);
    if (auth) keys.push(keyOf('authorization', authKey(auth.code, auth.second, auth.day)));
  }
  return keys;
}

/** What a report asks of an export: its acquirer ids, order ids and indexed keys (keyOf). */
export interface WantedKeys {
  acquirerIds: ReadonlySet<string>;
  orderIds: ReadonlySet<string>;
  indexed: ReadonlySet<string>;
}

/**
 * What an orders export says of the keys a report asks about: held for those keys only, so memory follows the
 * report.
 */
export interface ExportMatches {
  owners: Map<string, Owner[]>;
  orders: Set<string>;
  /** The orders of each wanted indexed key (keyOf). */
  keyed: Map<string, Set<string>>;
  /** Pairs whose acquirer id was a placeholder (N/A): no id, left out. */
  placeholders: number;
}

/** Reads `--orders FILE` once (through `--orders-map` when given), keeping what the wanted keys find. */
export async function readOrdersExport(
  spec: InputSpec,
  stdin: Readable,
  wanted: WantedKeys,
  options: { maxRecordBytes: number; signal?: AbortSignal; map?: ReadHooks },
): Promise<ExportMatches> {
  const found: ExportMatches = { owners: new Map(), orders: new Set(), keyed: new Map(), placeholders: 0 };
  const records = readRecords(spec, exportResource, stdin, {
    hooks: options.map,
    limits: { maxRecordBytes: options.maxRecordBytes },
    signal: options.signal,
    needs: 'ids',
  });
  for await (const record of records)
    for (const payment of exportedPayments(record.value)) keep(found, payment, wanted);
  return found;
}

function keep(found: ExportMatches, payment: ExportedPayment, wanted: WantedKeys): void {
  const orderId = payment.order_id;
  if (wanted.orderIds.has(orderId)) found.orders.add(orderId);
  for (const key of exportedKeys(payment)) {
    if (!wanted.indexed.has(key)) continue;
    const orders = found.keyed.get(key) ?? new Set<string>();
    found.keyed.set(key, orders.add(orderId));
  }
  const acquirerId = payment.acquirer_id;
  if (acquirerId === undefined) return;
  if (isPlaceholderId(acquirerId)) {
    found.placeholders++;
    return;
  }
  if (!wanted.acquirerIds.has(acquirerId)) return;
  found.orders.add(orderId);
  const owner: Owner = { orderId, paymentId: payment.payment_id, source: 'orders' };
  const list = found.owners.get(acquirerId);
  if (list) list.push(owner);
  else found.owners.set(acquirerId, [owner]);
}

import type { Readable } from 'node:stream';
import * as z from 'zod';
import type { InputSpec } from '../decode/inputSpec.js';
import { readRecords } from '../decode/readRecords.js';
import { noChecks, textField, type Resource } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import type { Owner } from './matchChargebacks.js';
import { isPlaceholderId } from './placeholderId.js';

/** An export of orders: any columns; collect reads `order_id` + `acquirer_id`, or an order's `id` + `payments.N.acquirer_id`. */
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

/** The pairs of one exported record: its order and each acquirer id it carries, with its payment id when it has one. */
export function pairsOf(value: unknown): { orderId: string; acquirerId: string; paymentId: string | null }[] {
  if (!isRecord(value)) return [];
  const flat = textField(value.order_id);
  const flatAcquirer = textField(value.acquirer_id);
  if (flat !== undefined && flatAcquirer !== undefined)
    return [{ orderId: flat, acquirerId: flatAcquirer, paymentId: textField(value.payment_id) ?? null }];
  const orderId = textField(value.id) ?? flat;
  if (orderId === undefined || !Array.isArray(value.payments)) return [];
  return value.payments.filter(isRecord).flatMap((payment) => {
    const acquirerId = textField(payment.acquirer_id);
    return acquirerId === undefined
      ? []
      : [{ orderId, acquirerId, paymentId: textField(payment.id) ?? null }];
  });
}

/** What an orders export says of the ids a report asks about: held for those ids only, so memory follows the report. */
export interface ExportMatches {
  owners: Map<string, Owner[]>;
  orders: Set<string>;
  /** Pairs whose acquirer id was a placeholder (N/A): no id, left out. */
  placeholders: number;
}

/** Reads `--orders FILE` once, keeping the owners of the wanted acquirer ids and which wanted order ids it holds. */
export async function readOrdersExport(
  spec: InputSpec,
  stdin: Readable,
  wanted: { acquirerIds: ReadonlySet<string>; orderIds: ReadonlySet<string> },
  options: { maxRecordBytes: number; signal?: AbortSignal },
): Promise<ExportMatches> {
  const owners = new Map<string, Owner[]>();
  const orders = new Set<string>();
  const records = readRecords(spec, exportResource, stdin, {
    limits: { maxRecordBytes: options.maxRecordBytes },
    signal: options.signal,
    needs: 'ids',
  });
  let placeholders = 0;
  for await (const record of records) {
    for (const pair of pairsOf(record.value)) {
      if (wanted.orderIds.has(pair.orderId)) orders.add(pair.orderId);
      if (isPlaceholderId(pair.acquirerId)) {
        placeholders++;
        continue;
      }
      if (!wanted.acquirerIds.has(pair.acquirerId)) continue;
      orders.add(pair.orderId);
      const owner: Owner = { orderId: pair.orderId, paymentId: pair.paymentId, source: 'orders' };
      const list = owners.get(pair.acquirerId);
      if (list) list.push(owner);
      else owners.set(pair.acquirerId, [owner]);
    }
  }
  return { owners, orders, placeholders };
}

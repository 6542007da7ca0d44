import type { EndpointName } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';

/** What the flow rules need to know of one record; extracted once, stored in the run index. */
export type Facts =
  | { kind: 'order'; orderId: string; evaluate: boolean; status?: string; payments: { id: string; acquirerId?: string }[]; deliveryIds: string[] }
  | { kind: 'status'; orderId: string; status: string }
  | { kind: 'fraud'; orderId: string; signalType?: string }
  | { kind: 'payment'; orderId: string; paymentId: string; acquirerId?: string }
  | { kind: 'delivery'; orderId: string; deliveryId: string };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/**
 * The flow facts of a record, or null when it lacks the ids the rules key on
 * (the schema already reports that). Records with other schema errors still take part,
 * so one bad field does not cascade into "unknown order" on every later update.
 */
export function extractFacts(endpoint: EndpointName, record: Record<string, unknown>): Facts | null {
  switch (endpoint) {
    case 'order': {
      const orderId = text(record.id);
      if (!orderId) return null;
      const payments = list(record.payments).flatMap((p) => {
        const id = text(p.id);
        if (!id) return [];
        const acquirerId = text(p.acquirer_id);
        return [acquirerId ? { id, acquirerId } : { id }];
      });
      const deliveryIds = list(record.deliveries).flatMap((d) => text(d.id) ?? []);
      const status = text(record.status);
      return { kind: 'order', orderId, evaluate: record.evaluate === true, ...(status ? { status } : {}), payments, deliveryIds };
    }
    case 'status': {
      const orderId = text(record.id);
      const status = text(record.status);
      return orderId && status ? { kind: 'status', orderId, status } : null;
    }
    case 'fraud': {
      const orderId = text(record.order_id);
      const signalType = text(record.fraud_signal_type);
      return orderId ? { kind: 'fraud', orderId, ...(signalType ? { signalType } : {}) } : null;
    }
    case 'payment': {
      const orderId = text(record.order_id);
      const paymentId = text(record.id);
      const acquirerId = text(record.acquirer_id);
      return orderId && paymentId ? { kind: 'payment', orderId, paymentId, ...(acquirerId ? { acquirerId } : {}) } : null;
    }
    case 'delivery': {
      const orderId = text(record.order_id);
      const deliveryId = text(record.id);
      return orderId && deliveryId ? { kind: 'delivery', orderId, deliveryId } : null;
    }
  }
}

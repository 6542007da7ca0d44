import { paymentCoverage } from './coverage.js';
import * as z from 'zod';
import { customData, nonEmptyString } from '../../schema/formats.js';
import { isRecord } from '../../schema/checks.js';
import { noChecks, textField, type Facts, type Resource } from '../resource.js';

/** §2.6: PUT /v2/order/payment, attaching an acquirer id to a payment sent without one. */
export const paymentSchema = z.object({
  id: nonEmptyString,
  order_id: nonEmptyString,
  acquirer_id: nonEmptyString,
  custom_data: customData.optional(),
});
export type PaymentUpdate = z.infer<typeof paymentSchema>;

/** What the flow rules need of a payment update. */
export interface PaymentFacts extends Facts {
  kind: 'payment';
  paymentId: string;
  acquirerId?: string;
}

export const paymentResource: Resource<typeof paymentSchema, PaymentFacts> = {
  name: 'payment',
  method: 'PUT',
  path: '/v2/order/payment',
  summary: "send the acquirer's transaction id of a payment",
  role: 'update',
  orderField: 'order_id',
  coverage: paymentCoverage,
  accepted: { status: 200, message: 'Payment updated' },
  schema: paymentSchema,
  checks: noChecks,
  example: { id: 'PAY-1', order_id: 'ORD-1001', acquirer_id: 'ACQ-778899' },
  facts: (record) => {
    const orderId = textField(record.order_id);
    const paymentId = textField(record.id);
    const acquirerId = textField(record.acquirer_id);
    return orderId && paymentId
      ? { kind: 'payment', orderId, key: paymentId, paymentId, ...(acquirerId ? { acquirerId } : {}) }
      : null;
  },
  remember: (facts, writes) => {
    if (facts.acquirerId) writes.setUpdatedAcquirer(facts.orderId, facts.paymentId, facts.acquirerId);
  },
  sandboxCheck: (order, body) => {
    const payments = Array.isArray(order.payments) ? order.payments.filter(isRecord) : [];
    return payments.some((payment) => payment.id === body.id)
      ? undefined
      : {
          status: 404,
          message: `payment ${String(body.id)} is not a payment of order ${String(body.order_id)}`,
        };
  },
};

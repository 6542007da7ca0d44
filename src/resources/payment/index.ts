import * as z from 'zod';
import { customData, nonEmptyString } from '../../schema/formats.js';
import { noChecks, type Resource } from '../resource.js';

/** §2.6: PUT /v2/order/payment, attaching an acquirer id to a payment sent without one. */
export const paymentSchema = z.object({
  id: nonEmptyString,
  order_id: nonEmptyString,
  acquirer_id: nonEmptyString,
  custom_data: customData.optional(),
});
export type PaymentUpdate = z.infer<typeof paymentSchema>;

export const paymentResource: Resource<typeof paymentSchema> = {
  name: 'payment',
  method: 'PUT',
  path: '/v2/order/payment',
  summary: "send the acquirer's transaction id of a payment",
  schema: paymentSchema,
  checks: noChecks,
  example: { id: 'PAY-1', order_id: 'ORD-1001', acquirer_id: 'ACQ-778899' },
};

import { deliveryCoverage } from './coverage.js';
import * as z from 'zod';
import { nonEmptyString } from '../../schema/formats.js';
import { exampleDeliverer } from '../shared/deliverer.js';
import { deliveryFields } from '../shared/deliveryFields.js';
import { noChecks, textField, type Facts, type Resource } from '../resource.js';

/** §2.3: PUT /v2/order/delivery. */
export const deliverySchema = z.object({ ...deliveryFields, order_id: nonEmptyString });
export type DeliveryUpdate = z.infer<typeof deliverySchema>;

/** What the flow rules need of a delivery update. */
export interface DeliveryFacts extends Facts {
  kind: 'delivery';
  deliveryId: string;
}

export const deliveryResource: Resource<typeof deliverySchema, DeliveryFacts> = {
  name: 'delivery',
  method: 'PUT',
  path: '/v2/order/delivery',
  summary: 'update a delivery (a delivery_datetime means delivered)',
  role: 'update',
  orderField: 'order_id',
  accepted: { status: 200, message: 'Delivery updated' },
  claimedByCreation: true,
  facts: (record) => {
    const orderId = textField(record.order_id);
    const deliveryId = textField(record.id);
    return orderId && deliveryId ? { kind: 'delivery', orderId, key: deliveryId, deliveryId } : null;
  },
  remember: (facts, writes) => writes.addDelivery(facts.orderId, facts.deliveryId),
  coverage: deliveryCoverage,
  schema: deliverySchema,
  checks: noChecks,
  example: {
    id: 'DEL-1',
    order_id: 'ORD-1001',
    type: 'express',
    delivery_datetime: '2024-03-03T16:20:00Z',
    scheduled: false,
    deliverer: exampleDeliverer,
  },
};

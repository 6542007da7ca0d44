import * as z from 'zod';
import { nonEmptyString } from '../../schema/formats.js';
import { deliveryFields, exampleDeliverer } from '../shared/deliverer.js';
import { noChecks, type Resource } from '../resource.js';

/** §2.3: PUT /v2/order/delivery. */
export const deliverySchema = z.object({ ...deliveryFields, order_id: nonEmptyString });
export type DeliveryUpdate = z.infer<typeof deliverySchema>;

export const deliveryResource: Resource<typeof deliverySchema> = {
  name: 'delivery',
  method: 'PUT',
  path: '/v2/order/delivery',
  summary: 'update a delivery (a delivery_datetime means delivered)',
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

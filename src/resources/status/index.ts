import * as z from 'zod';
import { customData, nonEmptyString, orderStatus } from '../../schema/formats.js';
import { noChecks, type Resource } from '../resource.js';

/** §2.1: PUT /v2/order, an order's status change. */
export const statusSchema = z.object({
  id: nonEmptyString,
  status: orderStatus,
  status_reason: z.string().optional(),
  custom_data: customData.optional(),
});
export type StatusUpdate = z.infer<typeof statusSchema>;

export const statusResource: Resource<typeof statusSchema> = {
  name: 'status',
  method: 'PUT',
  path: '/v2/order',
  summary: "report an order's status change",
  schema: statusSchema,
  checks: noChecks,
  example: { id: 'ORD-1001', status: 'approved', status_reason: 'payment captured' },
};

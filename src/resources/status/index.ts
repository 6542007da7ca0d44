import { statusCoverage } from './coverage.js';
import * as z from 'zod';
import { customData, nonEmptyString, orderStatus } from '../../schema/formats.js';
import { noChecks, textField, type Facts, type Resource } from '../resource.js';

/** §2.1: PUT /v2/order, an order's status change. */
export const statusSchema = z.object({
  id: nonEmptyString,
  status: orderStatus,
  status_reason: z.string().optional(),
  custom_data: customData.optional(),
});
export type StatusUpdate = z.infer<typeof statusSchema>;

/** What the flow rules need of a status change. */
export interface StatusFacts extends Facts {
  kind: 'status';
  status: string;
}

export const statusResource: Resource<typeof statusSchema, StatusFacts> = {
  name: 'status',
  method: 'PUT',
  path: '/v2/order',
  summary: "report an order's status change",
  role: 'update',
  orderField: 'id',
  accepted: { status: 200, message: 'Order status updated' },
  schema: statusSchema,
  checks: noChecks,
  example: { id: 'ORD-1001', status: 'approved', status_reason: 'payment captured' },
  facts: (record) => {
    const orderId = textField(record.id);
    const status = textField(record.status);
    return orderId && status ? { kind: 'status', orderId, key: orderId, status } : null;
  },
  remember: (facts, writes) => writes.setLastStatus(facts.orderId, facts.status),
  coverage: statusCoverage,
};

import * as z from 'zod';
import { customData, datetime, nonEmptyString } from '../../schema/formats.js';
import { delivererSchema } from './deliverer.js';

/** §2.3 without `order_id`: the delivery fields shared by the endpoint and the order's deliveries. */
export const deliveryFields = {
  id: nonEmptyString,
  type: z.enum(['normal', 'express', 'pickup']).optional(),
  delivery_datetime: datetime.optional(),
  scheduled: z.boolean().optional(),
  deliverer: delivererSchema.optional(),
  custom_data: customData.optional(),
};

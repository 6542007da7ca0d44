import * as z from 'zod';
import { error, type Issue } from '../core/issue.js';
import { textField, type Facts, type Resource } from '../resources/resource.js';
import { MAX_ID_LENGTH } from '../schema/formats.js';
import { hasAnyKey, type KeyFields } from './rowKeys.js';

const text = z.string().min(1).max(MAX_ID_LENGTH);

/** One row of an acquirer's chargeback report (docs/chargebacks.md): not an endpoint of the service, read like one. */
export const chargebackSchema = z.object({
  acquirer_id: text.optional(),
  order_id: text.optional(),
  reason_code: z.string().min(1).max(32).optional(),
  network: z.string().min(1).max(32).optional(),
  reason: z.string().max(500).optional(),
  amount: z.number().optional(),
  currency: z.string().min(1).max(8).optional(),
  received_at: z.string().min(1).max(40).optional(),
  arn: z.string().min(1).max(64).optional(),
  // The keys of the match cascade beyond the ids (source-files.md A.0.3, A.0.7): filled by the presets.
  authorization_code: z.string().min(1).max(32).optional(),
  nsu: z.string().min(1).max(32).optional(),
  terminal_id: z.string().min(1).max(32).optional(),
  card_last_four: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  sale_date: z.string().min(1).max(40).optional(),
  sale_amount: z.number().optional(),
});
export type ChargebackRow = z.infer<typeof chargebackSchema>;

/**
 * A row names its payment, its order, its ARN or a composite key (rowKeys.ts): without one there is nothing
 * to match.
 */
function needsAnId(row: Record<string, unknown>): Issue[] {
  if (textField(row.acquirer_id) !== undefined || textField(row.order_id) !== undefined) return [];
  if (hasAnyKey(row as KeyFields)) return [];
  return [
    error('missing-id', 'acquirer_id', 'the row has no acquirer_id, order_id, arn or composite key', {
      hint:
        "give the acquirer's transaction id (acquirer_id), the platform's order id (order_id), the " +
        'arn, or card_last_four + amount + sale_date',
    }),
  ];
}

/** The reader's resource for chargeback rows: the schema, the id check, no flow facts (matching is its own step). */
export const chargebackResource: Resource<typeof chargebackSchema, Facts> = {
  name: 'chargeback',
  method: 'POST',
  path: '',
  summary: "an acquirer's chargeback report",
  role: 'update',
  orderField: 'order_id',
  accepted: { status: 200, message: '' },
  schema: chargebackSchema,
  checks: (row) => needsAnId(row),
  example: {
    acquirer_id: 'ACQ-778899',
    reason_code: '10.4',
    network: 'visa',
    amount: 129.9,
    currency: 'BRL',
    received_at: '2024-04-02',
    arn: '74537604221431003881865',
  },
  facts: () => null,
  remember: () => undefined,
};

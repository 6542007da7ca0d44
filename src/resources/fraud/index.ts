import { fraudCoverage } from './coverage.js';
import * as z from 'zod';
import { objectCheck } from '../../schema/checks.js';
import { customData, nonEmptyString } from '../../schema/formats.js';
import { textField, type Facts, type Resource } from '../resource.js';
import { error, warning, type Issue } from '../../core/issue.js';
import { fraudByHand } from './byHand.js';
import { fraudSignalType } from './signalTypes.js';

export { fraudSignalType } from './signalTypes.js';

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** §2.2: POST /v2/order/mark_fraudulent. */
export const fraudSchema = z
  .object({
    order_id: nonEmptyString,
    fraud_signal_type: fraudSignalType,
    fraud_comment: z.string().optional(),
    custom_data: customData.optional(),
  })
  .check(
    objectCheck((mark, ctx) => {
      if (mark.fraud_signal_type === 'third_party_antifraud' && isBlank(mark.fraud_comment)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fraud_comment'],
          message: 'fraud_comment is required when fraud_signal_type is third_party_antifraud',
          params: {
            code: 'fraud-comment-required',
            hint: 'put the name of the other anti-fraud solution in fraud_comment',
          },
        });
      }
    }),
  );
export type FraudMark = z.infer<typeof fraudSchema>;

/** What the flow rules need of a fraud mark. */
export interface FraudFacts extends Facts {
  kind: 'fraud';
  signalType?: string;
}

function fraudChecks(mark: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  if (mark.fraud_signal_type === 'other' && isBlank(mark.fraud_comment)) {
    issues.push(
      warning(
        'fraud-comment-recommended',
        'fraud_comment',
        'fraud_comment is recommended when fraud_signal_type is other',
        {
          hint: 'describe the signal in fraud_comment',
        },
      ),
    );
  }
  // The service's published request table calls this field `status`: catch that mistake by name.
  if (mark.fraud_signal_type === undefined && mark.status !== undefined) {
    issues.push(
      error(
        'fraud-field-named-status',
        'fraud_signal_type',
        'the signal type goes in fraud_signal_type; this record carries it in status',
        {
          value: mark.status,
          hint: 'rename the field status to fraud_signal_type',
        },
      ),
    );
  }
  return issues;
}

export const fraudResource: Resource<typeof fraudSchema, FraudFacts> = {
  name: 'fraud',
  method: 'POST',
  path: '/v2/order/mark_fraudulent',
  summary: 'mark an order fraudulent (chargeback, manual review, acquirer, ...)',
  role: 'update',
  orderField: 'order_id',
  coverage: fraudCoverage,
  accepted: { status: 201, message: 'Order marked as fraudulent' },
  facts: (record) => {
    const orderId = textField(record.order_id);
    const signalType = textField(record.fraud_signal_type);
    return orderId ? { kind: 'fraud', orderId, key: orderId, ...(signalType ? { signalType } : {}) } : null;
  },
  remember: (facts, writes) => {
    if (facts.signalType) writes.addFraudMark(facts.orderId, facts.signalType);
  },
  byHand: fraudByHand,
  schema: fraudSchema,
  checks: fraudChecks,
  example: {
    order_id: 'ORD-1001',
    fraud_signal_type: 'chargeback',
    fraud_comment: 'chargeback received 2024-04-02',
  },
};

import { deliveryOrderMismatchRule } from './deliveryOrderMismatch.js';
import { duplicateFraudMarkRule } from './duplicateFraudMark.js';
import { duplicateOrderRule } from './duplicateOrder.js';
import { fraudAfterServiceDeclineRule } from './fraudAfterServiceDecline.js';
import { missingFraudMarkRule } from './missingFraudMark.js';
import { orderInvalidRule } from './orderInvalid.js';
import { paymentAcquirerConflictRule, paymentUpdateRedundantRule, unknownPaymentRule } from './payments.js';
import { recordRules } from './recordRules.js';
import type { FlowRule } from './rule.js';
import { statusUnchangedRule } from './statusUnchanged.js';
import { unknownOrderRule } from './unknownOrder.js';

export type { FlowRule } from './rule.js';

/** Every rule of docs/flow-rules.md, in its order. */
export const flowRules: readonly FlowRule[] = [
  unknownOrderRule,
  orderInvalidRule,
  duplicateOrderRule,
  fraudAfterServiceDeclineRule,
  ...recordRules,
  duplicateFraudMarkRule,
  missingFraudMarkRule,
  unknownPaymentRule,
  paymentUpdateRedundantRule,
  paymentAcquirerConflictRule,
  statusUnchangedRule,
  deliveryOrderMismatchRule,
];

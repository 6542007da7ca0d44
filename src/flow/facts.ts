import type { DeliveryFacts } from '../resources/delivery/index.js';
import type { FraudFacts } from '../resources/fraud/index.js';
import type { OrderFacts } from '../resources/order/index.js';
import type { PaymentFacts } from '../resources/payment/index.js';
import type { StatusFacts } from '../resources/status/index.js';

export type { Facts } from '../resources/resource.js';

/** The facts the rules of docs/flow-rules.md read, each declared by its endpoint's folder. */
export type RuleFacts = OrderFacts | StatusFacts | FraudFacts | PaymentFacts | DeliveryFacts;

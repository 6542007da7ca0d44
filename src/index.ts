// The library surface of collect: schemas, their types, and record validation.
export {
  orderSchema,
  customerSchema,
  sellerSchema,
  itemSchema,
  productSchema,
  orderPaymentSchema,
  cardSchema,
  orderDeliverySchema,
} from './resources/order/index.js';
export type { Order } from './resources/order/index.js';
export { statusSchema, type StatusUpdate } from './resources/status/index.js';
export { fraudSchema, fraudSignalType, type FraudMark } from './resources/fraud/index.js';
export { paymentSchema, type PaymentUpdate } from './resources/payment/index.js';
export { deliverySchema, type DeliveryUpdate } from './resources/delivery/index.js';
export { addressSchema, delivererSchema, type Address, type Deliverer } from './resources/shared/index.js';
export { resources, endpointNames, isEndpointName } from './resources/registry.js';
export type { Resource, EndpointName, ValidationContext } from './resources/resource.js';
export { validateRecord } from './validate/validateRecord.js';
export type { Issue, LocatedIssue, Severity, RecordLocation } from './core/issue.js';
export { ReportBuilder, reportExitCode, type Report, type Summary } from './report/report.js';
export { CollectError, UsageError, InputError } from './core/errors.js';

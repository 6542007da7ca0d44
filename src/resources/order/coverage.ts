import { field, inList, type CoverageField } from '../shared/coverage.js';

/** The fields of a creation whose presence the fraud models depend on (docs/payloads.md). */
export const orderCoverage: readonly CoverageField[] = [
  field('user.document', "customer's document"),
  field('user.email', "customer's email"),
  field('user.phone_number', "customer's phone"),
  field('user.address', "customer's address"),
  field('user.creation_datetime', 'customer since'),
  field('total_paid_value', 'total paid'),
  field('creation_datetime', 'order time'),
  field('items', 'items'),
  inList('items', 'product.seller', "items' seller"),
  field('payments', 'payments'),
  inList('payments', 'card.first_six_digits', 'card BIN'),
  inList('payments', 'card.last_four_digits', 'card last digits'),
  inList('payments', 'card.holder_name', 'card holder'),
  inList('payments', 'acquirer_id', 'acquirer id'),
  field('deliveries', 'deliveries'),
  inList('deliveries', 'deliverer', 'deliverer'),
];

import { typeKey } from './formats/foldText.js';
import { reasonEntry, type Category, type ReasonEntry, type ReasonTable } from './reasonCategories.js';

/**
 * Reason names reports write instead of (or beside) a network code (source-files.md R.6: Asaas,
 * Stripe, Checkout.com, Braintree), compared folded as row types are. `unknown`: the vendor's own
 * "uncategorised", said without a warning.
 */
const names: Readonly<Record<Category | 'unknown', readonly string[]>> = {
  fraud: [
    'ABSENT_CARD_FRAUD',
    'CARD_FRAUD',
    'FRAUD',
    'OTHER_ABSENT_CARD_FRAUD',
    'ABSENCE_OF_PRINT',
    'RIGHT_OF_FULL_RECOURSE_FOR_FRAUD',
    'fraudulent',
    'unrecognized',
    'debit_not_authorized',
    'not_recognized',
  ],
  authorisation: ['CARD_RECOVERY_BULLETIN', 'REQUIRED_AUTHORIZATION_NOT_GRANTED'],
  processing: [
    'COPY_NOT_RECEIVED',
    'CREDIT_OR_DEBIT_PRESENTATION_ERROR',
    'DIFFERENT_PAY_METHOD',
    'INCORRECT_TRANSACTION_VALUE',
    'INVALID_CURRENCY',
    'INVALID_DATA',
    'LATE_PRESENTATION',
    'MULTIPLE_ROCS',
    'PROCESS_ERROR',
    'RECEIVED_COPY_ILLEGIBLE_OR_INCOMPLETE',
    'CARD_ACTIVATED_PHONE_TRANSACTION',
    'duplicate',
    'bank_cannot_process',
    'check_returned',
    'incorrect_account_details',
    'insufficient_funds',
    'noncompliant',
    'incorrect_amount',
    'invalid_account',
    'transaction_amount_differs',
  ],
  'consumer-dispute': [
    'COMMERCIAL_DISAGREEMENT',
    'ORIGINAL_CREDIT_TRANSACTION_NOT_ACCEPTED',
    'RECURRENCE_CANCELED',
    'LOCAL_REGULATORY_OR_LEGAL_DISPUTE',
    'credit_not_processed',
    'product_not_received',
    'product_unacceptable',
    'subscription_canceled',
    'customer_initiated',
    'not_as_described',
    'credit_not_issued',
    'canceled_recurring',
    'product_service_not_received',
    'cancelled_recurring_transaction',
    'product_unsatisfactory',
  ],
  unknown: ['general', 'retrieval'],
};

const byName = new Map(
  Object.entries(names).flatMap(([category, list]) => list.map((n) => [typeKey(n), category] as const)),
);

/** The category of a reason name, `unknown` for a vendor's "general", undefined for a name the table lacks. */
export function nameCategory(reason: string | undefined): Category | 'unknown' | undefined {
  return reason === undefined ? undefined : (byName.get(typeKey(reason)) as Category | 'unknown' | undefined);
}

/** A row's category (A.R): its network's code when the table knows it, else its reason name, else `unknown`. */
export function rowCategory(
  table: ReasonTable,
  row: { network?: string | undefined; reason_code?: string | undefined; reason?: string | undefined },
): { category: Category | 'unknown'; entry?: ReasonEntry; known: boolean } {
  const entry = reasonEntry(table, row.network, row.reason_code);
  if (entry) return { category: entry.category, entry, known: true };
  const named = nameCategory(row.reason);
  return named === undefined ? { category: 'unknown', known: false } : { category: named, known: true };
}

import { describe, expect, it } from 'vitest';
import { shippedTable } from './reasonCategories.js';
import { nameCategory, rowCategory } from './reasonNames.js';

/** The reason names of source-files.md R.6 (Asaas, Stripe, Checkout.com, Braintree), by category. */
const specNames: Record<string, string> = {
  fraud:
    'ABSENT_CARD_FRAUD CARD_FRAUD FRAUD OTHER_ABSENT_CARD_FRAUD ABSENCE_OF_PRINT RIGHT_OF_FULL_RECOURSE_FOR_FRAUD ' +
    'fraudulent unrecognized debit_not_authorized fraud not_recognized',
  authorisation: 'CARD_RECOVERY_BULLETIN REQUIRED_AUTHORIZATION_NOT_GRANTED',
  processing:
    'COPY_NOT_RECEIVED CREDIT_OR_DEBIT_PRESENTATION_ERROR DIFFERENT_PAY_METHOD INCORRECT_TRANSACTION_VALUE ' +
    'INVALID_CURRENCY INVALID_DATA LATE_PRESENTATION MULTIPLE_ROCS PROCESS_ERROR ' +
    'RECEIVED_COPY_ILLEGIBLE_OR_INCOMPLETE CARD_ACTIVATED_PHONE_TRANSACTION duplicate bank_cannot_process ' +
    'check_returned incorrect_account_details insufficient_funds noncompliant incorrect_amount invalid_account ' +
    'transaction_amount_differs',
  'consumer-dispute':
    'COMMERCIAL_DISAGREEMENT ORIGINAL_CREDIT_TRANSACTION_NOT_ACCEPTED RECURRENCE_CANCELED ' +
    'LOCAL_REGULATORY_OR_LEGAL_DISPUTE credit_not_processed product_not_received product_unacceptable ' +
    'subscription_canceled customer_initiated not_as_described credit_not_issued canceled_recurring ' +
    'product_service_not_received cancelled_recurring_transaction product_unsatisfactory',
  unknown: 'general retrieval',
};

describe('reason names', () => {
  it("puts every name source-files.md R.6 lists in the spec's category, in any case", () => {
    const wrong = Object.entries(specNames).flatMap(([category, names]) =>
      names
        .split(' ')
        .filter((name) => nameCategory(name) !== category || nameCategory(name.toLowerCase()) !== category),
    );
    expect(wrong).toEqual([]);
  });

  it("takes the network's code first, then the name; a vendor's general is known, an unlisted name is not", () => {
    expect(
      rowCategory(shippedTable, { network: 'visa', reason_code: '13.1', reason: 'fraudulent' }),
    ).toMatchObject({
      category: 'consumer-dispute',
    });
    expect(rowCategory(shippedTable, { network: 'elo', reason_code: '71', reason: 'FRAUD' })).toMatchObject({
      category: 'fraud',
      known: true,
    });
    expect(rowCategory(shippedTable, { reason: 'general' })).toEqual({ category: 'unknown', known: true });
    expect(rowCategory(shippedTable, { reason: 'Something else' })).toEqual({
      category: 'unknown',
      known: false,
    });
  });
});

// The categories of reasonCategories.ts, spelt here so that the two files do not import each other.
type Category = 'fraud' | 'consumer-dispute' | 'processing' | 'authorisation';
type Rows = readonly (readonly [string, Category, string])[];

/**
 * Visa's codes beyond VCR's groups: 12.6 without a sub-code, 33 (an inquiry code Stripe files as fraud), and
 * the pre-2018 codes older processors still write.
 */
export const visaMore: Rows = [
  ['12.6', 'processing', 'duplicate processing or paid by other means'],
  ['33', 'fraud', 'fraud analysis request'],
  ['57', 'fraud', 'fraudulent multiple transactions'],
  ['62', 'fraud', 'counterfeit transaction'],
  ['81', 'fraud', 'fraud: card-present environment'],
  ['83', 'fraud', 'fraud: card-absent environment'],
  ['93', 'fraud', 'merchant fraud performance program'],
  ['70', 'authorisation', 'card recovery bulletin'],
  ['71', 'authorisation', 'declined authorisation'],
  ['72', 'authorisation', 'no authorisation'],
  ['73', 'authorisation', 'expired card'],
  ['74', 'processing', 'late presentment'],
  ['76', 'processing', 'incorrect currency or transaction code'],
  ['77', 'processing', 'non-matching account number'],
  ['78', 'processing', 'service code violation'],
  ['80', 'processing', 'incorrect amount or account number'],
  ['82', 'processing', 'duplicate processing'],
  ['86', 'processing', 'paid by other means'],
  ['30', 'consumer-dispute', 'services not provided or merchandise not received'],
  ['41', 'consumer-dispute', 'cancelled recurring transaction'],
  ['53', 'consumer-dispute', 'not as described or defective merchandise'],
  ['85', 'consumer-dispute', 'credit not processed'],
  ['75', 'consumer-dispute', 'transaction not recognised'],
];

/** SEPA Direct Debit return reasons (ISO 20022), read as source-files.md R.5 does: an unauthorised debit is fraud. */
export const sepa: Rows = [
  ['MD01', 'fraud', 'NoMandate'],
  ['MD02', 'fraud', 'MissingMandatoryInformationInMandate'],
  ['MD06', 'consumer-dispute', 'RefundRequestByEndCustomer'],
  ['MS02', 'consumer-dispute', 'NotSpecifiedReasonCustomerGenerated'],
  ...(
    [
      ['AC01', 'IncorrectAccountNumber'],
      ['AC04', 'ClosedAccountNumber'],
      ['AC06', 'BlockedAccount'],
      ['AG01', 'TransactionForbidden'],
      ['AG02', 'InvalidBankOperationCode'],
      ['AM04', 'InsufficientFunds'],
      ['AM05', 'Duplication'],
      ['BE05', 'UnrecognisedInitiatingParty'],
      ['FF01', 'InvalidFileFormat'],
      ['MD07', 'EndCustomerDeceased'],
      ['MS03', 'NotSpecifiedReasonAgentGenerated'],
      ['RC01', 'BankIdentifierIncorrect'],
      ['RR01', 'regulatory reason'],
      ['RR02', 'regulatory reason'],
      ['RR03', 'regulatory reason'],
      ['RR04', 'regulatory reason'],
      ['SL01', 'SpecificServiceOfferedByDebtorAgent'],
    ] as const
  ).map(([code, label]) => [code, 'processing', label] as const),
];

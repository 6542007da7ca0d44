import * as z from 'zod';

/** §2.2: the kinds of fraud signal the service takes. */
export const fraudSignalType = z.enum([
  'acquirer',
  'manual_analysis',
  'chargeback',
  'third_party_antifraud',
  'other',
]);

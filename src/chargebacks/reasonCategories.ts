import { sepa, visaMore } from './reasonCategoriesMore.js';

/**
 * The category of a network's chargeback reason code, from a table shipped with collect
 * (docs/chargebacks.md names its sources), which `--reason-categories FILE` extends or overrides.
 */
export const categories = ['fraud', 'consumer-dispute', 'processing', 'authorisation'] as const;
export type Category = (typeof categories)[number];

/** A reason code's category and its network's own name for it. */
export interface ReasonEntry {
  category: Category;
  label: string;
}

/** network -> reason code -> entry; codes kept as the networks write them (upper case). */
export type ReasonTable = ReadonlyMap<string, ReadonlyMap<string, ReasonEntry>>;

type Rows = readonly (readonly [string, Category, string])[];

// Visa Claims Resolution (VCR, 2018-): the group of a code is its category (10 fraud, 11 authorisation, 12
// processing, 13 consumer).
const visa: Rows = [
  ['10.1', 'fraud', 'EMV liability shift counterfeit fraud'],
  ['10.2', 'fraud', 'EMV liability shift non-counterfeit fraud'],
  ['10.3', 'fraud', 'other fraud: card-present environment'],
  ['10.4', 'fraud', 'other fraud: card-absent environment'],
  ['10.5', 'fraud', 'Visa fraud monitoring program'],
  ['11.1', 'authorisation', 'card recovery bulletin'],
  ['11.2', 'authorisation', 'declined authorisation'],
  ['11.3', 'authorisation', 'no authorisation'],
  ['12.1', 'processing', 'late presentment'],
  ['12.2', 'processing', 'incorrect transaction code'],
  ['12.3', 'processing', 'incorrect currency'],
  ['12.4', 'processing', 'incorrect account number'],
  ['12.5', 'processing', 'incorrect amount'],
  ['12.6.1', 'processing', 'duplicate processing'],
  ['12.6.2', 'processing', 'paid by other means'],
  ['12.7', 'processing', 'invalid data'],
  ['13.1', 'consumer-dispute', 'merchandise or services not received'],
  ['13.2', 'consumer-dispute', 'cancelled recurring transaction'],
  ['13.3', 'consumer-dispute', 'not as described or defective merchandise or services'],
  ['13.4', 'consumer-dispute', 'counterfeit merchandise'],
  ['13.5', 'consumer-dispute', 'misrepresentation'],
  ['13.6', 'consumer-dispute', 'credit not processed'],
  ['13.7', 'consumer-dispute', 'cancelled merchandise or services'],
  ['13.8', 'consumer-dispute', 'original credit transaction not accepted'],
  ['13.9', 'consumer-dispute', 'non-receipt of cash or load transaction value'],
];

// Mastercard Chargeback Guide, message reason codes in use since the 2017 dispute simplification.
const mastercard: Rows = [
  ['4837', 'fraud', 'no cardholder authorisation'],
  ['4840', 'fraud', 'fraudulent processing of transactions'],
  ['4849', 'fraud', 'questionable merchant activity'],
  ['4863', 'fraud', 'cardholder does not recognise: potential fraud'],
  ['4870', 'fraud', 'chip liability shift'],
  ['4871', 'fraud', 'chip/PIN liability shift: lost, stolen, never received'],
  ['4807', 'authorisation', 'warning bulletin file'],
  ['4808', 'authorisation', 'authorisation-related chargeback'],
  ['4812', 'authorisation', 'account number not on file'],
  ['4831', 'processing', 'transaction amount differs'],
  ['4834', 'processing', 'point-of-interaction error (duplicate, paid by other means)'],
  ['4842', 'processing', 'late presentment'],
  ['4846', 'processing', 'correct transaction currency code not provided'],
  ['4841', 'consumer-dispute', 'cancelled recurring or digital goods transactions'],
  ['4853', 'consumer-dispute', 'cardholder dispute'],
  ['4854', 'consumer-dispute', 'cardholder dispute: not elsewhere classified (US region)'],
  ['4855', 'consumer-dispute', 'goods or services not provided'],
  ['4859', 'consumer-dispute', 'addendum, no-show or ATM dispute'],
  ['4860', 'consumer-dispute', 'credit not processed'],
];

// American Express merchant regulations, chargeback reason codes (F fraud, A authorisation, P processing, C/M
// card member disputes).
const amex: Rows = [
  ['F10', 'fraud', 'missing imprint'],
  ['F14', 'fraud', 'missing signature'],
  ['F24', 'fraud', 'no card member authorisation'],
  ['F29', 'fraud', 'card not present'],
  ['F30', 'fraud', 'EMV counterfeit'],
  ['F31', 'fraud', 'EMV lost, stolen or non-received'],
  ['FR2', 'fraud', 'fraud full recourse program'],
  ['FR4', 'fraud', 'immediate chargeback program'],
  ['FR6', 'fraud', 'partial immediate chargeback program'],
  ['A01', 'authorisation', 'charge amount exceeds authorisation amount'],
  ['A02', 'authorisation', 'no valid authorisation'],
  ['A08', 'authorisation', 'authorisation approval expired'],
  ['P01', 'processing', 'unassigned card number'],
  ['P03', 'processing', 'credit processed as charge'],
  ['P04', 'processing', 'charge processed as credit'],
  ['P05', 'processing', 'incorrect charge amount'],
  ['P07', 'processing', 'late submission'],
  ['P08', 'processing', 'duplicate charge'],
  ['P22', 'processing', 'non-matching card number'],
  ['P23', 'processing', 'currency discrepancy'],
  ['C02', 'consumer-dispute', 'credit not processed'],
  ['C04', 'consumer-dispute', 'goods or services returned or refused'],
  ['C05', 'consumer-dispute', 'goods or services cancelled'],
  ['C08', 'consumer-dispute', 'goods or services not received or only partially received'],
  ['C14', 'consumer-dispute', 'paid by other means'],
  ['C18', 'consumer-dispute', '"no show" or CARDeposit cancelled'],
  ['C28', 'consumer-dispute', 'cancelled recurring billing'],
  ['C31', 'consumer-dispute', 'goods or services not as described'],
  ['C32', 'consumer-dispute', 'goods or services damaged or defective'],
  ['M10', 'consumer-dispute', 'vehicle rental: capital damages'],
  ['M49', 'consumer-dispute', 'vehicle rental: theft or loss of use'],
];

// Discover dispute rules: UA fraud codes, AT authorisation, the rest processing errors and cardholder disputes.
const discover: Rows = [
  ['UA01', 'fraud', 'fraud: card present transaction'],
  ['UA02', 'fraud', 'fraud: card not present transaction'],
  ['UA05', 'fraud', 'fraud: chip counterfeit transaction'],
  ['UA06', 'fraud', 'fraud: chip and PIN transaction'],
  ['AT', 'authorisation', 'authorisation noncompliance'],
  ['AW', 'processing', 'altered amount'],
  ['CD', 'processing', 'credit posted as card sale'],
  ['DP', 'processing', 'duplicate processing'],
  ['IC', 'processing', 'illegible sales data'],
  ['LP', 'processing', 'late presentation'],
  ['AP', 'consumer-dispute', 'cancelled recurring billing'],
  ['NF', 'consumer-dispute', 'non-receipt of goods, services or cash'],
  ['PM', 'consumer-dispute', 'paid by other means'],
  ['RG', 'consumer-dispute', 'non-receipt of goods or services'],
  ['RM', 'consumer-dispute', 'cardholder disputes quality of goods or services'],
  ['RN2', 'consumer-dispute', 'credit not received'],
];

const build = (rows: Rows) =>
  new Map(rows.map(([code, category, label]) => [code, { category, label }] as const));

/** The table shipped with collect (Elo, Hipercard and others: add them with --reason-categories). */
export const shippedTable: ReasonTable = new Map([
  ['visa', build([...visa, ...visaMore])],
  ['mastercard', build(mastercard)],
  ['amex', build(amex)],
  ['discover', build(discover)],
  ['sepa', build(sepa)],
]);

/** The names a report may give a network, as collect writes them. */
const networkAliases: Readonly<Record<string, string>> = {
  mc: 'mastercard',
  'master card': 'mastercard',
  'american express': 'amex',
  americanexpress: 'amex',
  'discover global network': 'discover',
};

/** A network's name as the table keys it: lower case, trimmed, its usual aliases folded. */
export function networkKey(network: string): string {
  const key = network.trim().toLowerCase();
  return networkAliases[key] ?? key;
}

/** A reason code as the table keys it: trimmed, upper case; Visa's and Mastercard's are numbers. */
export const codeKey = (code: string): string => code.trim().toUpperCase();

/** Visa's, Mastercard's and Amex's codes do not overlap: a row without a network is looked up in all of them. */
export function reasonEntry(
  table: ReasonTable,
  network: string | undefined,
  code: string | undefined,
): ReasonEntry | undefined {
  if (code === undefined) return undefined;
  const key = codeKey(code);
  if (network !== undefined) return table.get(networkKey(network))?.get(key);
  const found = [...table.values()].map((codes) => codes.get(key)).filter((entry) => entry !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

/** The shipped table with a user's rows on top (a row of the same network and code replaces the shipped one). */
export function mergedTable(
  base: ReasonTable,
  rows: readonly { network: string; code: string; category: Category; label: string }[],
): ReasonTable {
  const merged = new Map([...base].map(([network, codes]) => [network, new Map(codes)]));
  for (const row of rows) {
    const network = networkKey(row.network);
    let codes = merged.get(network);
    if (!codes) merged.set(network, (codes = new Map()));
    codes.set(codeKey(row.code), { category: row.category, label: row.label });
  }
  return merged;
}

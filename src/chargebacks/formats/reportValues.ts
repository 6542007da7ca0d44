/** The values of A.0.5: networks folded to collect's names, currencies upper-cased, minor units to major. */

const networks: Readonly<Record<string, string>> = {
  vi: 'visa',
  visa: 'visa',
  mc: 'mastercard',
  mastercard: 'mastercard',
  'master card': 'mastercard',
  ax: 'amex',
  amex: 'amex',
  'american express': 'amex',
  di: 'discover',
  ds: 'discover',
  discover: 'discover',
  elo: 'elo',
  hipercard: 'hipercard',
  mt: 'maestro',
  maestro: 'maestro',
  ny: 'nyce',
  ps: 'pulse',
  'sepa direct debit': 'sepa',
};

/** A network as a report writes it, in collect's name (`VI` → `visa`); an unknown one lower-cased. */
export function networkName(written: string): string {
  const key = written.trim().toLowerCase().replace(/\s+/g, ' ');
  return networks[key] ?? key;
}

/** A currency code upper-cased; Cielo's `REAL` is `BRL`. */
export function currencyCode(written: string): string {
  const code = written.trim().toUpperCase();
  return code === 'REAL' ? 'BRL' : code;
}

const noDecimals = new Set('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '));
const threeDecimals = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));

/** ISO 4217's exponent of a currency: 0, 3, or 2 for every other code. */
export function currencyExponent(currency: string | undefined): number {
  if (currency === undefined) return 2;
  return noDecimals.has(currency) ? 0 : threeDecimals.has(currency) ? 3 : 2;
}

/** A major-units amount from minor units, exact to the exponent (8150 GBP → 81.5). */
export function fromMinorUnits(minor: number, exponent: number): number {
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

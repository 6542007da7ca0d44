import { describe, expect, it } from 'vitest';
import { mergedTable, reasonEntry, shippedTable } from './reasonCategories.js';
import { parseReasonCategories } from './reasonCategoriesFile.js';

/** Every code source-files.md's tables R.1, R.2, R.3 (Discover) and R.5 name, by network and category. */
const specCodes: Record<string, Record<string, string>> = {
  visa: {
    fraud: '10.1 10.2 10.3 10.4 10.5 33 57 62 81 83 93',
    authorisation: '11.1 11.2 11.3 70 71 72 73',
    processing: '12.1 12.2 12.3 12.4 12.5 12.6 12.6.1 12.6.2 12.7 74 76 77 78 80 82 86',
    'consumer-dispute': '13.1 13.2 13.3 13.4 13.5 13.6 13.7 13.8 13.9 30 41 53 75 85',
  },
  mastercard: {
    fraud: '4837 4840 4849 4863 4870 4871',
    authorisation: '4807 4808 4812',
    processing: '4831 4834 4842 4846',
    'consumer-dispute': '4841 4853 4854 4855 4859 4860',
  },
  amex: { fraud: 'F10 F14 F24 F29 F30 F31 FR2 FR4 FR6', authorisation: 'A01 A02 A08' },
  discover: {
    fraud: 'UA01 UA02 UA05 UA06',
    authorisation: 'AT',
    processing: 'AW CD DP IC LP',
    'consumer-dispute': 'AP NF PM RG RM RN2',
  },
  sepa: {
    fraud: 'MD01 MD02',
    'consumer-dispute': 'MD06 MS02',
    processing: 'AC01 AC04 AC06 AG01 AG02 AM04 AM05 BE05 FF01 MD07 MS03 RC01 RR01 RR02 RR03 RR04 SL01',
  },
};

describe('reason-code categories', () => {
  it('knows the networks by their usual names and codes in any case', () => {
    expect(reasonEntry(shippedTable, ' MasterCard ', '4837')?.category).toBe('fraud');
    expect(reasonEntry(shippedTable, 'American Express', 'f29')?.category).toBe('fraud');
    expect(reasonEntry(shippedTable, 'visa', '12.6.1')?.category).toBe('processing');
    expect(reasonEntry(shippedTable, 'visa', '4837')).toBeUndefined();
  });

  it("puts every code source-files.md names in the spec's category; Elo and Hipercard in none (R.4)", () => {
    const wrong = Object.entries(specCodes).flatMap(([network, categories]) =>
      Object.entries(categories).flatMap(([category, codes]) =>
        codes
          .split(' ')
          .filter((code) => reasonEntry(shippedTable, network, code)?.category !== category)
          .map((code) => `${network} ${code}`),
      ),
    );
    expect(wrong).toEqual([]);
    expect([shippedTable.has('elo'), shippedTable.has('hipercard')]).toEqual([false, false]);
  });

  it('finds a code without a network only when one network has it', () => {
    expect(reasonEntry(shippedTable, undefined, '13.1')?.category).toBe('consumer-dispute');
    expect(reasonEntry(shippedTable, undefined, '99')).toBeUndefined();
  });

  it('puts a file of codes over the shipped table, with its mistakes by line', () => {
    const { rows, problems } = parseReasonCategories(
      'network,reason_code,category,label\nelo,71,fraud,fraude\nvisa,13.1,fraud,\nelo,72,theft,\n,,fraud\n',
    );
    expect(problems).toEqual([
      {
        line: 4,
        message: 'category "theft" is not one of fraud, consumer-dispute, processing, authorisation',
      },
      { line: 5, message: 'network and reason_code must not be empty' },
    ]);
    const table = mergedTable(shippedTable, rows);
    expect(reasonEntry(table, 'ELO', '71')).toEqual({ category: 'fraud', label: 'fraude' });
    expect(reasonEntry(table, 'visa', '13.1')?.category).toBe('fraud');
    expect(reasonEntry(shippedTable, 'visa', '13.1')?.category).toBe('consumer-dispute');
    expect(parseReasonCategories('code,category\n').problems[0]!.message).toContain('network, reason_code');
  });
});

import { describe, expect, it } from 'vitest';
import { mergedTable, reasonEntry, shippedTable } from './reasonCategories.js';
import { parseReasonCategories } from './reasonCategoriesFile.js';

describe('reason-code categories', () => {
  it('knows the networks by their usual names and codes in any case', () => {
    expect(reasonEntry(shippedTable, ' MasterCard ', '4837')?.category).toBe('fraud');
    expect(reasonEntry(shippedTable, 'American Express', 'f29')?.category).toBe('fraud');
    expect(reasonEntry(shippedTable, 'visa', '12.6.1')?.category).toBe('processing');
    expect(reasonEntry(shippedTable, 'visa', '4837')).toBeUndefined();
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

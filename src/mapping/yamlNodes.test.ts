import { describe, expect, it } from 'vitest';
import { parseMapping } from './parseMapping.js';

const problems = (text: string) =>
  parseMapping(text).problems.map((p) => `${p.line}: ${p.message}${p.hint ? ` (${p.hint})` : ''}`);

describe('YAML anchors, aliases and merge keys in a mapping', () => {
  it('reads aliases anywhere and merge keys, with a top-level anchors: key, as if written out', () => {
    const { spec, problems: found } = parseMapping(
      [
        'version: 1',
        'anchors:',
        '  money: &money { number: decimal-comma }',
        '  words: &words { paid: approved, refunded: cancelled }',
        '  common: &common',
        '    id: Id',
        '    currency: { value: BRL }',
        'records:',
        '  - endpoint: order',
        '    from: a.csv',
        '    fields: *common',
        '  - endpoint: order',
        '    from: b.csv',
        '    fields:',
        '      <<: *common',
        '      currency: { value: EUR }',
        '      total_paid_value: { column: Total, <<: *money }',
        '  - endpoint: status',
        '    from: a.csv',
        '    fields: { id: Id, status: { column: St, values: *words } }',
      ].join('\n'),
    );
    expect(found).toEqual([]);
    const [first, second, third] = spec!.entries;
    expect(first!.fields.map((f) => [f.target, f.source])).toEqual([
      ['id', { kind: 'column', column: 'Id' }],
      ['currency', { kind: 'value', value: 'BRL' }],
    ]);
    // The map's own keys win over the merged ones.
    expect(second!.fields.map((f) => [f.target, f.source])).toEqual([
      ['currency', { kind: 'value', value: 'EUR' }],
      ['total_paid_value', { kind: 'column', column: 'Total', number: 'decimal-comma' }],
      ['id', { kind: 'column', column: 'Id' }],
    ]);
    expect(third!.fields[1]!.source).toEqual({
      kind: 'column',
      column: 'St',
      values: { paid: 'approved', refunded: 'cancelled' },
    });
  });

  it('refuses an alias bomb before reading it, and a merge of something that is not a map', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let n = 1; n < 8; n++)
      levels.push(
        `${'b'.repeat(n)}: &${'b'.repeat(n)} [${Array(10)
          .fill(`*${n === 1 ? 'a' : 'b'.repeat(n - 1)}`)
          .join(', ')}]`,
      );
    expect(
      problems(`version: 1\nanchors:\n${levels.map((l) => `  ${l}`).join('\n')}\nrecords: []\n`),
    ).toEqual([
      expect.stringMatching(/^1: the mapping expands to more than 100,000 values through its aliases/),
    ]);
    expect(
      problems(
        'version: 1\nanchors: { x: &x 3 }\nrecords:\n  - endpoint: order\n    fields: { <<: *x, id: Id }\n',
      ),
    ).toEqual(['5: << merges a map (<<: *name) or a list of maps (<<: [*a, *b])']);
  });

  // Before: 32 s of the YAML reader's uniqueKeys (each key compared with every earlier one), then
  // "expands to more than 100,000 values through its aliases", though the mapping had no alias.
  it('reads a large values: map in linear time and names the size limit, not aliases', () => {
    const entries = Array.from({ length: 60_000 }, (_, i) => `          k${i}: v${i}`);
    const text =
      `version: 1\nrecords:\n  - endpoint: status\n    from: s.csv\n    fields:\n      id: Id\n      ` +
      `status:\n        column: S\n        values:\n${entries.join('\n')}\n`;
    expect(problems(text)).toEqual([
      expect.stringMatching(
        /^1: the mapping holds more than 100,000 values, collect's size limit for a mapping/,
      ),
    ]);
  });

  it('names a key written twice in the same map, at its line', () => {
    expect(
      problems('version: 1\nrecords:\n  - endpoint: order\n    fields: { id: Id }\n    fields: {}\n'),
    ).toEqual(['5: the key "fields" is written twice in the same map (keep one of them)']);
  });
});

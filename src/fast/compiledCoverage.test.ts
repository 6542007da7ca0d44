import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverageFields, plainCoverageOf, present } from '../check/fieldCoverage.js';
import { isRecord } from '../schema/checks.js';
import { compiledCoverage } from './compiledCoverage.js';

/** Values a field may hold: absent, empty in every way, or carried. */
const leaf = fc.constantFrom<unknown>(undefined, null, '', [], {}, 'x', 0, false, { a: 1 }, ['y']);

/** A record with values on (and beside) every path of an endpoint's coverage list. */
function recordOf(paths: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...new Set(paths.flatMap((path) => path.replace('[].', '.').split('.')))];
  const node: fc.Memo<unknown> = fc.memo((depth) =>
    depth <= 1
      ? leaf
      : fc.oneof(
          leaf,
          fc.dictionary(fc.constantFrom(...keys), node(depth - 1), { maxKeys: 4 }),
          fc.array(fc.dictionary(fc.constantFrom(...keys), node(depth - 1), { maxKeys: 4 }), {
            maxLength: 3,
          }),
        ),
  );
  return fc.dictionary(fc.constantFrom(...keys), node(4), { maxKeys: 6 });
}

describe('the compiled coverage mask against its plain twin', () => {
  for (const [endpoint, fields] of Object.entries(coverageFields)) {
    it(`gives the same mask for any ${endpoint} record`, () => {
      const compiled = compiledCoverage(fields, present, isRecord);
      fc.assert(
        fc.property(recordOf(fields.map((f) => f.path)), (record) => {
          expect(compiled(record)).toBe(plainCoverageOf(endpoint, record));
        }),
        { numRuns: 500, seed: 42 },
      );
    });
  }
});

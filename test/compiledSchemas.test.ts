import { describe, expect, it } from 'vitest';
import { registry } from '../src/resources/registry.js';
import { compiledTwin, fastValidator } from '../src/fast/fastValidator.js';
import { mutated } from './helpers/mutations.js';
import { random } from './helpers/random.js';

// validateRecord asks each endpoint's compiled twin first: it must answer exactly as the schema.
describe("the endpoints' compiled schemas", () => {
  it.each(registry.all.map((resource) => [resource.name, resource] as const))(
    '%s: compiles, and answers as safeParse on its example and 3,000 mutations of it',
    (_name, resource) => {
      expect(compiledTwin(resource.schema)).toBeDefined();
      const passes = fastValidator(resource.schema);
      const next = random(resource.name.length);
      let valid = 0;
      const records = [
        resource.example,
        ...Array.from({ length: 3000 }, () => mutated(resource.example, next)),
      ];
      for (const record of records) {
        const expected = resource.schema.safeParse(record).success;
        expect(passes(record), JSON.stringify(record)).toBe(expected);
        if (expected) valid++;
      }
      // Both answers are exercised.
      expect(valid).toBeGreaterThan(50);
      expect(valid).toBeLessThan(records.length - 50);
    },
  );
});

import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { mutated } from '../../test/helpers/mutations.js';
import { random } from '../../test/helpers/random.js';
import { pairedFields, uniqueIds } from '../schema/checks.js';
import { datetime, money } from '../schema/formats.js';
import { COMPILE_AFTER, compiledTwin, fastValidator } from './fastValidator.js';

const schema = z
  .object({
    id: z.string().min(1),
    paid: money.optional(),
    at: datetime.optional(),
    phone_number: z.string().optional(),
    phone_country_code: z.string().optional(),
    payments: z.array(z.object({ id: z.string().min(1), value: money.optional() })).optional(),
  })
  .check(pairedFields('phone_number', 'phone_country_code'), uniqueIds('payments', 'payment'));

const example = {
  id: 'A',
  paid: 10.5,
  at: '2024-03-01T14:30:00Z',
  phone_number: '1',
  phone_country_code: '55',
  payments: [{ id: 'P1', value: 1 }, { id: 'P2' }],
};

describe('fastValidator', () => {
  it('compiles a schema with object checks (their when left out while compiling)', () => {
    expect(compiledTwin(schema)).toBeDefined();
  });

  it('answers as safeParse, on an example and 3,000 mutations of it (compiled from the COMPILE_AFTER-th on)', () => {
    const passes = fastValidator(schema);
    const next = random(3);
    let valid = 0;
    for (const record of [example, ...Array.from({ length: 3000 }, () => mutated(example, next))]) {
      const expected = schema.safeParse(record).success;
      expect(passes(record), JSON.stringify(record)).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(100);
    expect(valid).toBeLessThan(2900);
    expect(COMPILE_AFTER).toBeLessThan(300);
  });

  it('leaves the runtime parser reporting every problem: an object check still runs beside a field error', () => {
    compiledTwin(schema);
    const result = schema.safeParse({
      id: 'A',
      paid: 'ten',
      phone_number: '1',
      payments: [{ id: 'P' }, { id: 'P' }],
    });
    const paths = result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['paid', 'phone_country_code', 'payments.1.id']));
  });
});

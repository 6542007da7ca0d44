import { describe, expect, it } from 'vitest';
import { inexactNumbers } from './inexactNumbers.js';

describe('inexactNumbers', () => {
  it('finds inexact numbers with their field paths, skipping strings', () => {
    const text =
      '{"id":"1e400","a\\"b":[1,{"x":123456789012345678901234567890}],"total_paid_value":1e400,' +
      '"ok":10.5,"card":"4111111111111111"}';
    expect(inexactNumbers(text).map((issue) => [issue.path, issue.value])).toEqual([
      ['a"b.1.x', '123456789012345678901234567890'],
      ['total_paid_value', '1e400'],
    ]);
  });

  it('finds nothing in an ordinary record', () => {
    expect(inexactNumbers('{"id":"ORD-1","total_paid_value":259.9,"items":[{"quantity":2}]}')).toEqual([]);
  });
});

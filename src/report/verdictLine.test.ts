import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { exitCodeMeanings } from '../core/exitCodes.js';
import { verdictLine, verdictMarks } from './verdictLine.js';

describe('verdictLine', () => {
  it('marks a line from the exit code alone: a green check for 0 and only 0', () => {
    const plain = new Chalk({ level: 0 });
    for (const { code } of exitCodeMeanings) {
      const line = verdictLine(code, '3 records', plain);
      expect(line).toBe(`${verdictMarks[code]} 3 records`);
      expect(line.startsWith('✔'), String(code)).toBe(code === 0);
    }
  });
});

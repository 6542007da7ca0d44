import { describe, expect, it } from 'vitest';
import { forTerminal } from './terminalText.js';

describe('forTerminal', () => {
  it('escapes what could move the cursor, colour or reorder a line, and keeps line breaks, tabs and text', () => {
    expect(forTerminal('a\u001b[2Jb\u009b31mc\rd\u202ee\u0007')).toBe('a\\u001b[2Jb\\u009b31mc\\u000dd\\u202ee\\u0007');
    expect(forTerminal('São Paulo\n\tR$ 10,50 ✔')).toBe('São Paulo\n\tR$ 10,50 ✔');
  });
});

import { describe, expect, it } from 'vitest';
import { terminalLines, terminalText } from './terminalText.js';

describe('terminalText', () => {
  it('writes C0, DEL and C1 controls as escapes and leaves other text alone', () => {
    expect(terminalText('a\u001b]52;c;SGk=\u0007b')).toBe('a\\u001b]52;c;SGk=\\u0007b');
    expect(terminalText('x\u007fy\u0080z\u009b2J')).toBe('x\\u007fy\\u0080z\\u009b2J');
    expect(terminalText('one\ntwo\r\tthree')).toBe('one\\ntwo\\r\\tthree');
    expect(terminalText('São Paulo, 10,50 € 😀 \u00a0')).toBe('São Paulo, 10,50 € 😀 \u00a0');
  });
  it('keeps line breaks in messages of several lines', () => {
    expect(terminalLines('line 1: "\u001b[2J"\nline 2')).toBe('line 1: "\\u001b[2J"\nline 2');
  });
});

describe('terminalLines', () => {
  it('escapes what could move the cursor, colour or reorder a line, and keeps line breaks, tabs and text', () => {
    expect(terminalLines('a\u001b[2Jb\u009b31mc\rd\u202ee\u0007')).toBe(
      'a\\u001b[2Jb\\u009b31mc\\rd\\u202ee\\u0007',
    );
    expect(terminalLines('São Paulo\n\tR$ 10,50 ✔')).toBe('São Paulo\n\tR$ 10,50 ✔');
  });
});

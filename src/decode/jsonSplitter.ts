import { error, type Issue } from '../core/issue.js';

/** A top-level element of a JSON input, as text, with where it starts. */
export interface JsonElement {
  text: string;
  line: number;
  /** Set (to its size) when the element was larger than the limit: its text is then not kept. */
  tooLarge?: number;
}

export type SplitEvent = { element: JsonElement } | { problem: Issue; line: number };

/** Where a splitter takes up a document cut between its elements: inside the array, or after it; at this line. */
export interface SplitResume {
  mode: 'array' | 'after';
  line: number;
}

const OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  NEWLINE = 0x0a,
  BOM = 0xfeff;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Splits a JSON document (one object, or an array of them) into its records as they stream in,
 * keeping the line each starts on, so an array of millions of orders never sits in memory whole.
 */
export class JsonSplitter {
  private mode: 'start' | 'array' | 'single' | 'after' = 'start';
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pieces: string[] = [];
  private elementLine = 0;
  private inElement = false;
  private done = false;
  private size = 0;

  constructor(
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    from?: SplitResume,
  ) {
    if (from) [this.mode, this.depth, this.line] = [from.mode, from.mode === 'array' ? 1 : 0, from.line];
  }

  private keep(piece: string): void {
    this.size += piece.length;
    // Past the limit the text is dropped: a huge element costs no memory, only a count.
    if (this.size <= this.maxBytes) this.pieces.push(piece);
    else this.pieces = [];
  }

  /** Feeds the next piece of text; returns the records it completed. */
  push(chunk: string): SplitEvent[] {
    const events: SplitEvent[] = [];
    let start = this.inElement ? 0 : -1;
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        else if (c === NEWLINE) this.line++;
        continue;
      }
      if (c === NEWLINE) this.line++;
      if (this.mode === 'start') {
        if (isSpace(c) || c === BOM) continue;
        if (c === OPEN_BRACKET) {
          this.mode = 'array';
          this.depth = 1;
          continue;
        }
        if (c === OPEN_BRACE) {
          this.mode = 'single';
          this.depth = 0;
        } else {
          events.push(
            this.fail('the input must be a JSON object or an array of objects', 'start the file with { or ['),
          );
          break;
        }
      }
      if (this.mode === 'after') {
        if (isSpace(c)) continue;
        events.push(
          this.fail(
            'unexpected text after the end of the JSON document',
            'remove what follows the closing bracket, or use NDJSON for one object per line',
          ),
        );
        break;
      }
      if (!this.inElement) {
        if (isSpace(c)) continue;
        if (this.mode === 'array' && this.depth === 1) {
          if (c === CLOSE_BRACKET) {
            this.mode = 'after';
            this.depth = 0;
            continue;
          }
          if (c === COMMA) continue;
        }
        this.inElement = true;
        this.elementLine = this.line;
        start = i;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
        if (this.mode === 'array' && this.depth === 0) {
          // A bare value followed directly by `]`: the array ends with it.
          this.keep(chunk.slice(start, i));
          events.push(this.finishElement());
          this.mode = 'after';
          continue;
        }
      }
      const closesNested =
        (c === CLOSE_BRACE || c === CLOSE_BRACKET) && this.depth === (this.mode === 'array' ? 1 : 0);
      const endsBareValue = this.mode === 'array' && this.depth === 1 && c === COMMA;
      if (closesNested) {
        this.keep(chunk.slice(start, i + 1));
        events.push(this.finishElement());
        if (this.mode === 'single') this.mode = 'after';
      } else if (endsBareValue) {
        this.keep(chunk.slice(start, i));
        events.push(this.finishElement());
      }
    }
    if (this.inElement && start >= 0) this.keep(chunk.slice(start));
    return events;
  }

  /** Call at the end of input: reports a truncated document. */
  end(): SplitEvent[] {
    if (this.done) return [];
    if (this.mode === 'start') return [];
    if (this.inElement) {
      const text = this.pieces.join('').trimEnd();
      if (this.depth <= (this.mode === 'array' ? 1 : 0) && !this.inString && text !== '') {
        return [{ element: { text, line: this.elementLine } }, this.truncated(this.line)];
      }
      return [this.truncated(this.elementLine)];
    }
    return this.mode === 'array' ? [this.truncated(this.line)] : [];
  }

  private truncated(line: number): SplitEvent {
    return {
      problem: error(
        'invalid-json',
        '',
        `the JSON ends before the ${this.inElement ? 'record' : 'array'} that starts here is ` +
          `closed (is the file truncated?)`,
        { hint: 'check the end of the file: every { needs its }, and the array its ]' },
      ),
      line,
    };
  }

  private fail(message: string, hint: string): SplitEvent {
    this.done = true;
    return { problem: error('invalid-json', '', message, { hint }), line: this.line };
  }

  private finishElement(): SplitEvent {
    const element: JsonElement =
      this.size > this.maxBytes
        ? { text: '', line: this.elementLine, tooLarge: this.size }
        : { text: this.pieces.join(''), line: this.elementLine };
    this.pieces = [];
    this.size = 0;
    this.inElement = false;
    return { element };
  }
}

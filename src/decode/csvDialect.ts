import iconv from 'iconv-lite';
import type { CsvDialect } from '../mapping/mappingSpec.js';
import { checkedUtf8 } from './utf8Check.js';

/** Past this many characters, a cell is written out quoted as it comes rather than held whole. */
const HELD_CELL = 1 << 20;

/** Whether a dialect is the one the readers parse (`,`, `"`, UTF-8): its bytes pass untouched. */
export function isPlainDialect(dialect: CsvDialect | undefined): boolean {
  return (
    (dialect?.delimiter ?? ',') === ',' &&
    (dialect?.quote ?? '"') === '"' &&
    (dialect?.encoding ?? 'utf-8') === 'utf-8'
  );
}

/**
 * A CSV file's bytes as the readers parse them: decoded from its encoding (streamed) and, when its
 * delimiter or quote differ, rewritten cell by cell to `,` and `"` with every line break kept, so
 * lines, pieces and errors stay those of the file. UTF-8 is checked where it is read, as before.
 */
export function csvBytes(
  bytes: AsyncIterable<Buffer>,
  dialect: CsvDialect | undefined,
): AsyncIterable<Buffer> {
  if (isPlainDialect(dialect)) return checkedUtf8(bytes);
  const encoding = dialect?.encoding ?? 'utf-8';
  // UTF-8 is checked before decoding (a bad byte is reported at its line, never replaced); the others decode
  // every byte.
  const text = decoded(encoding === 'utf-8' ? checkedUtf8(bytes) : bytes, encoding);
  const delimiter = dialect?.delimiter ?? ',';
  const quote = dialect?.quote ?? '"';
  return encoded(delimiter === ',' && quote === '"' ? text : rewritten(text, delimiter, quote));
}

async function* decoded(bytes: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<string> {
  if (encoding === 'latin1') {
    // Byte for byte (ISO-8859-1): WHATWG's "latin1" label means windows-1252, so Buffer's decoder is used.
    for await (const chunk of bytes) yield chunk.toString('latin1');
    return;
  }
  if (encoding !== 'utf-8') {
    // iconv-lite, not TextDecoder: Node 20's TextDecoder reads windows-1252's 0x80-0x9F (€, “ ”, –) as C1 controls.
    const decoder = iconv.getDecoder(encoding);
    for await (const chunk of bytes) yield decoder.write(chunk);
    yield decoder.end() ?? '';
    return;
  }
  const decoder = new TextDecoder(encoding);
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

async function* encoded(text: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const part of text) if (part !== '') yield Buffer.from(part, 'utf8');
}

async function* rewritten(
  text: AsyncIterable<string>,
  delimiter: string,
  quote: string,
): AsyncGenerator<string> {
  const rewriter = new DialectRewriter(delimiter, quote);
  for await (const part of text) yield rewriter.push(part);
  yield rewriter.end();
}

const enum State {
  Start,
  Unquoted,
  Quoted,
  AfterQuote,
}

const escape = (cell: string) => cell.replaceAll('"', '""');

/**
 * Rewrites CSV text of one delimiter and quote into `,` and `"`, text as it comes; line breaks are kept where
 * they are.
 */
export class DialectRewriter {
  private state = State.Start;
  private cell = '';
  /** The cell must be quoted in the output (it was, or it holds `,`, `"` or a line break). */
  private quoted = false;
  /** Its opening quote is written already (a cell too long to hold). */
  private opened = false;

  /** Characters that neither end nor quote a cell, nor need quoting in the output. */
  private readonly plain: RegExp;

  constructor(
    private readonly delimiter: string,
    private readonly quote: string,
  ) {
    const special = [delimiter, quote, ',', '"', '\r', '\n'].map((c) => c.replace(/[\\\]^-]/g, '\\$&'));
    this.plain = new RegExp(`[^${special.join('')}]+`, 'uy');
  }

  push(text: string): string {
    let out = '';
    let at = 0;
    while (at < text.length) {
      if (this.state === State.Quoted) {
        // Everything up to the next quote is the cell's.
        const close = text.indexOf(this.quote, at);
        this.cell += close < 0 ? text.slice(at) : text.slice(at, close);
        if (close >= 0) this.state = State.AfterQuote;
        at = close < 0 ? text.length : close + this.quote.length;
      } else {
        this.plain.lastIndex = at;
        const run = this.state === State.AfterQuote ? null : this.plain.exec(text);
        if (run) {
          // A run of ordinary characters, taken at once.
          this.cell += run[0];
          this.state = State.Unquoted;
          at += run[0].length;
        } else {
          const c = String.fromCodePoint(text.codePointAt(at)!);
          at += c.length;
          if (c !== this.quote) out += this.boundary(c);
          else if (this.state === State.Unquoted) out += this.boundary(c);
          else {
            // An opening quote, or a doubled one inside a quoted cell (a quote of the cell's).
            if (this.state === State.AfterQuote) this.cell += c;
            this.quoted = true;
            this.state = State.Quoted;
          }
        }
      }
      if (this.cell.length > HELD_CELL) out += this.release();
    }
    return out;
  }

  /** The end of the text: an unclosed quote stays unclosed, for the reader to report. */
  end(): string {
    if (this.state === State.Quoted) {
      const out = `${this.opened ? '' : '"'}${escape(this.cell)}`;
      this.cell = '';
      return out;
    }
    return this.finish();
  }

  /** A character outside quotes: a delimiter or line break ends the cell, anything else is part of it. */
  private boundary(c: string): string {
    if (c === this.delimiter) return `${this.finish()},`;
    if (c === '\n' || c === '\r') return `${this.finish()}${c}`;
    this.state = State.Unquoted;
    this.cell += c;
    if (c === ',' || c === '"') this.quoted = true;
    return '';
  }

  private finish(): string {
    const cell = this.cell;
    let out: string;
    if (this.opened) out = `${escape(cell)}"`;
    else if (this.quoted) out = `"${escape(cell)}"`;
    else out = cell;
    this.cell = '';
    this.quoted = false;
    this.opened = false;
    this.state = State.Start;
    return out;
  }

  private release(): string {
    const out = `${this.opened ? '' : '"'}${escape(this.cell)}`;
    this.opened = true;
    this.cell = '';
    return out;
  }
}

/** The delimiters exports use: a header split by none of the file's but holding another was written with that one. */
const COMMON = [',', ';', '\t', '|'];

/** Why a header shows the file was written with another delimiter than its dialect's; undefined when it looks right. */
export function wrongDelimiter(
  header: readonly string[],
  dialect: CsvDialect | undefined,
): string | undefined {
  const delimiter = dialect?.delimiter ?? ',';
  if (header.length !== 1) return undefined;
  const other = COMMON.find((candidate) => candidate !== delimiter && header[0]!.includes(candidate));
  if (other === undefined) return undefined;
  return (
    `its header holds ${shown(other)} and no ${shown(delimiter)}: it looks ${shown(other)}` +
    `-separated, but is read as ${shown(delimiter)}-separated`
  );
}

/** A delimiter as a message shows it. */
export function shown(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/** The record delimiter of a CSV file, as csv-parse finds it: the first line break outside quotes. */
export type RecordDelimiter = '\n' | '\r\n' | '\r';

const QUOTE = 34;
const COMMA = 44;

/**
 * A line break that is not the file's record delimiter (csv-parse would keep it as data or end the record
 * there: it decides).
 */
const STRAY_BREAK: Record<RecordDelimiter, RegExp> = { '\n': /\r/, '\r': /\n/, '\r\n': /\r(?!\n)|(?<!\r)\n/ };

/** Line breaks inside one cell (a quoted cell may span lines): CRLF, CR or LF, one each. */
export function breaksIn(cell: string): number {
  let breaks = 0;
  for (let at = 0; at < cell.length; at++) {
    const code = cell.charCodeAt(at);
    if (code === 10) breaks++;
    else if (code === 13 && cell.charCodeAt(at + 1) !== 10) breaks++;
  }
  return breaks;
}

/**
 * The rows of a plain CSV piece, each with the line it starts on (blank lines counted and dropped), and the
 * lines it spans.
 */
export interface PlainRows {
  rows: string[][];
  lines: number[];
  lineCount: number;
}

/**
 * Reads a piece of CSV text that is plain RFC 4180, as csv-parse reads it with collect's options,
 * at several times its speed: rows without quotes are split natively, quoted cells unescaped by
 * searching for the next quote. Anything else — a quote inside an unquoted cell, text after a
 * closing quote, an unclosed quote, a stray line break, a record that may be over `maxRecordBytes`
 * — gives undefined: csv-parse reads that piece, and gives its error where it has one.
 */
export function readPlainCsv(
  text: string,
  delimiter: RecordDelimiter,
  maxRecordBytes: number,
): PlainRows | undefined {
  if (STRAY_BREAK[delimiter].test(text)) return undefined;
  // A UTF-16 unit is at most 3 bytes of UTF-8: a record of fewer units than this is under the limit.
  const maxUnits = Math.floor(maxRecordBytes / 3);
  const rows: string[][] = [];
  const lines: number[] = [];
  const length = text.length;
  const step = delimiter.length;
  let line = 1;
  let at = 0;
  let quote = text.indexOf('"');
  while (at < length) {
    let end = text.indexOf(delimiter, at);
    if (end === -1) end = length;
    if (quote === -1 || quote >= end) {
      if (end - at > maxUnits) return undefined;
      if (end > at) {
        rows.push(text.slice(at, end).split(','));
        lines.push(line);
      }
      line++;
      at = end + step;
      continue;
    }
    const start = at;
    const row: string[] = [];
    let breaks = 0;
    for (;;) {
      // `at` is the start of a cell.
      if (text.charCodeAt(at) === QUOTE) {
        let cell = '';
        let from = at + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close === -1) return undefined;
          cell += text.slice(from, close);
          if (text.charCodeAt(close + 1) !== QUOTE) {
            at = close + 1;
            break;
          }
          cell += '"';
          from = close + 2;
        }
        row.push(cell);
        breaks += breaksIn(cell);
        quote = text.indexOf('"', at);
      } else {
        if (end < at) end = text.indexOf(delimiter, at);
        if (end === -1) end = length;
        let stop = text.indexOf(',', at);
        if (stop === -1 || stop > end) stop = end;
        if (quote !== -1 && quote < stop) return undefined;
        row.push(text.slice(at, stop));
        at = stop;
      }
      // `at` is just after a cell: a comma, the record's end, or (after a quoted cell) anything else.
      if (text.charCodeAt(at) === COMMA) {
        at++;
        continue;
      }
      if (at === length || text.startsWith(delimiter, at)) break;
      return undefined;
    }
    if (at - start > maxUnits) return undefined;
    // A row of one empty cell is a blank line to csv-parse's reader too (RowLines): counted, dropped.
    if (row.length > 1 || row[0] !== '') {
      rows.push(row);
      lines.push(line);
    }
    line += 1 + breaks;
    at += step;
  }
  return { rows, lines, lineCount: line - 1 };
}

/** A line of text, or the size of one too long to keep. */
export type BoundedLine = { text: string } | { tooLong: number };

/**
 * Splits text into lines (LF or CRLF), never holding more than `max` characters of one:
 * a longer line is counted and dropped, so a file without line breaks cannot exhaust memory.
 */
export async function* boundedLines(text: AsyncIterable<string>, max: number): AsyncGenerator<BoundedLine> {
  let pieces: string[] = [];
  let size = 0;
  const finish = (): BoundedLine => {
    const line = size > max ? { tooLong: size } : { text: pieces.join('').replace(/\r$/, '') };
    pieces = [];
    size = 0;
    return line;
  };
  for await (const chunk of text) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, end);
      size += piece.length;
      if (size <= max) pieces.push(piece);
      yield finish();
      start = end + 1;
    }
    const rest = chunk.slice(start);
    if (rest === '') continue;
    size += rest.length;
    if (size <= max) pieces.push(rest);
    else pieces = [];
  }
  if (size > 0 || pieces.length > 0) yield finish();
}

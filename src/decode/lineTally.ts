/**
 * Counts the lines of the bytes that pass through an input, so a run stopped mid-file can say how many it did
 * not read.
 */
export class LineTally {
  private newlines = 0;
  private last = -1;

  count(chunk: Buffer): void {
    if (chunk.length === 0) return;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
    this.last = chunk[chunk.length - 1]!;
  }

  /** The lines seen, a last one without a newline included. */
  get lines(): number {
    return this.newlines + (this.last !== -1 && this.last !== 10 ? 1 : 0);
  }
}

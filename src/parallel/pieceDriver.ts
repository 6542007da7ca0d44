/**
 * How a format cuts its input into pieces for the workers: CSV and NDJSON at record boundaries
 * (pieceSplitter.ts), a JSON array between elements (jsonArraySplitter.ts), a Parquet file by row
 * group. Each piece starts and ends at a record boundary, so pieces are read side by side.
 */
export interface Cutter {
  /** The pieces these bytes complete. */
  push(bytes: Buffer): Buffer[];
  /** Everything pending: the last piece; or, `closed` or `overflowed`, the bytes the caller reads itself. */
  end(): Buffer;
  /** The pending bytes up to the last boundary: what is whole when a read failed. */
  complete(): Buffer;
  /** A record with no boundary for too long: the caller reads the rest as one stream. */
  readonly overflowed: boolean;
  /** The format's document ended before the input (a JSON array's closing bracket): the caller reads what follows. */
  readonly closed?: boolean;
  /** The last piece is sent even empty: its reader is told the input ended there (a truncated JSON array). */
  readonly tellsEnd?: boolean;
}

/** Who reads the pieces (decode/pieceParsers.ts): workers, or this thread for a small input. */
export interface PieceReaders<A> {
  readonly workerThreads: number;
  readonly inFlight: number;
  /** `last`: the input's last piece. */
  add(piece: Buffer, last?: boolean): void;
  /** The answer to the oldest piece not yet taken. */
  next(): Promise<A>;
  close(): Promise<void>;
}

/**
 * The one piece driver of every format: each piece's answer, in file order. The input is read into
 * pieces (after `head`) as answers are taken, a few per worker in flight; the workers are given back
 * at the end, or when the caller stops. At the input's end what is left is the last piece. When a
 * read fails (bytes that are not UTF-8), only the records read whole are read and the failure is
 * thrown after their answers, as a stream would. It stops early when the cutter overflows or closes:
 * the caller reads the rest as a stream.
 */
export async function* answersInOrder<A>(
  head: Buffer,
  input: AsyncIterator<Buffer>,
  cutter: Cutter,
  readers: PieceReaders<A>,
): AsyncGenerator<A> {
  const window = 2 * readers.workerThreads + 2;
  let done = false;
  let failed = false;
  let failure: unknown;
  const stopped = () => cutter.overflowed || cutter.closed === true;
  try {
    for (const piece of cutter.push(head)) readers.add(piece);
    for (;;) {
      while (readers.inFlight < window && !done && !stopped()) {
        let step: IteratorResult<Buffer>;
        try {
          step = await input.next();
        } catch (cause) {
          [failed, failure] = [true, cause];
          step = { done: true, value: undefined };
        }
        if (step.done) {
          done = true;
          const last = failed ? cutter.complete() : cutter.end();
          // A failed read is no end of the input: a reader told of the end would report one there.
          if (last.length > 0 || (cutter.tellsEnd === true && !failed))
            readers.add(last, !(failed && cutter.tellsEnd === true));
        } else for (const piece of cutter.push(step.value)) readers.add(piece);
      }
      if (readers.inFlight === 0) break;
      yield await readers.next();
    }
  } finally {
    await readers.close();
  }
  if (failed) throw failure;
}

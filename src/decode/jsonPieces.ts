import { decodeUtf8 } from './decodeUtf8.js';
import { readHead, recordTaskOptions } from './inputHead.js';
import type { JsonPiece, JsonTaskOptions } from './jsonPieceTask.js';
import { readJsonRecords } from './jsonRecords.js';
import { arrayStart, JsonArraySplitter, lineBreaks } from '../parallel/jsonArraySplitter.js';
import { PIECE_BYTES, PieceParsers, restOf, unsplittableBytes, workerCount } from './pieceParsers.js';
import type { ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';

/** One piece's records, in order, from line `base` and record `index` of the file. */
function* piecesRecords(
  piece: JsonPiece,
  file: string,
  base: number,
  index: number,
): Generator<SourceRecord> {
  for (const [n, { line, checked, value, text }] of piece.records.entries()) {
    const record: SourceRecord = {
      file,
      index: index + n,
      line: line + base - 1,
      issues: checked.issues,
      checked,
    };
    if (value !== undefined) record.value = value;
    if (text !== undefined) record.raw = { kind: 'text', text };
    yield record;
  }
}

/**
 * Records of a JSON input, checked against their endpoint where they are read: a small input, or a
 * document that is not an array, on this thread (jsonRecords.ts, checked by the run); a larger
 * array cut into pieces between its elements (on bytes, parallel/jsonArraySplitter.ts), which the
 * piece workers split, read and check side by side.
 */
export async function* readJsonPieces(
  bytes: AsyncIterable<Buffer>,
  file: string,
  limits: ReadLimits,
  check: ReadCheck,
): AsyncGenerator<SourceRecord> {
  const input = bytes[Symbol.asyncIterator]();
  try {
    const head = await readHead(input);
    if (head.kind === 'failed') {
      // Bytes that are not UTF-8: the records before them are still read, and then it fails, as a stream would.
      const before = (async function* () {
        yield head.bytes;
        throw head.cause;
      })();
      yield* readJsonRecords(decodeUtf8(before), file, limits);
      return;
    }
    const first = head.bytes;
    const start = head.kind === 'large' ? arrayStart(first) : -1;
    // A small input, one object, or not JSON at all: read here, as a stream.
    if (start < 0) {
      yield* readJsonRecords(decodeUtf8(restOf(first, input)), file, limits);
      return;
    }
    const options: JsonTaskOptions = { format: 'json', ...recordTaskOptions(limits, check) };
    yield* inPieces(
      first.subarray(start),
      1 + lineBreaks(first.subarray(0, start)),
      input,
      file,
      limits,
      options,
    );
  } finally {
    await input.return?.();
  }
}

/** An array's elements from `line` on, in pieces on the workers; after the array, or an element too long to cut, read here. */
async function* inPieces(
  head: Buffer,
  line: number,
  input: AsyncIterator<Buffer>,
  file: string,
  limits: ReadLimits,
  options: JsonTaskOptions,
): AsyncGenerator<SourceRecord> {
  const parsers = new PieceParsers(workerCount(), options);
  const window = 2 * parsers.workerThreads + 2;
  const splitter = new JsonArraySplitter(PIECE_BYTES, unsplittableBytes(limits.maxRecordBytes));
  /** The first line of each piece in flight. */
  const bases: number[] = [];
  let index = 0;
  const add = (piece: Buffer, last = false) => {
    parsers.add(piece, last);
    bases.push(line);
    line += lineBreaks(piece);
  };
  async function* answered(all: boolean): AsyncGenerator<SourceRecord> {
    while (parsers.inFlight > (all ? 0 : window)) {
      const piece = (await parsers.next()) as JsonPiece;
      yield* piecesRecords(piece, file, bases.shift()!, index);
      index += piece.records.length;
    }
  }
  let ended = false;
  try {
    for (const piece of splitter.push(head)) add(piece);
    while (!splitter.closed && !splitter.overflowed) {
      let step: IteratorResult<Buffer>;
      try {
        step = await input.next();
      } catch (cause) {
        // A read that failed (bytes that are not UTF-8): the elements read whole are answered first.
        add(splitter.complete());
        yield* answered(true);
        throw cause;
      }
      if (step.done) {
        ended = true;
        break;
      }
      for (const piece of splitter.push(step.value)) add(piece);
      yield* answered(false);
    }
    // At the input's end inside the array, the last piece is told so (a truncated array is reported there).
    if (ended) add(splitter.end(), true);
    yield* answered(true);
  } finally {
    await parsers.close();
  }
  if (ended) return;
  // After the array (text there is a problem), or from an element too long to cut on: read here, as a stream.
  const from = { mode: splitter.closed ? ('after' as const) : ('array' as const), line, index };
  yield* readJsonRecords(decodeUtf8(restOf(splitter.end(), input)), file, limits, from);
}

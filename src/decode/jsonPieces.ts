import { decodeUtf8 } from './decodeUtf8.js';
import { readHead, recordTaskOptions } from './inputHead.js';
import type { JsonTaskOptions } from './jsonPieceTask.js';
import { answersInOrder } from '../parallel/pieceDriver.js';
import { piecesRecords } from './pieceRecords.js';
import { readJsonRecords } from './jsonRecords.js';
import { arrayStart, JsonArraySplitter, lineBreaks } from '../parallel/jsonArraySplitter.js';
import { PIECE_BYTES, PieceParsers, restOf, unsplittableBytes, workerCount } from './pieceParsers.js';
import type { ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';

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

/**
 * An array's elements from `line` on, in pieces on the workers; after the array, or an element too long to
 * cut, read here.
 */
async function* inPieces(
  head: Buffer,
  line: number,
  input: AsyncIterator<Buffer>,
  file: string,
  limits: ReadLimits,
  options: JsonTaskOptions,
): AsyncGenerator<SourceRecord> {
  const parsers = new PieceParsers(workerCount(), options);
  const splitter = new JsonArraySplitter(PIECE_BYTES, unsplittableBytes(limits.maxRecordBytes));
  let index = 0;
  for await (const piece of answersInOrder(head, input, splitter, parsers)) {
    yield* piecesRecords(piece, file, line, index);
    line += piece.lineCount;
    index += piece.packed.count;
  }
  if (!splitter.closed && !splitter.overflowed) return;
  // After the array (text there is a problem), or from an element too long to cut on: read here, as a stream.
  const from = { mode: splitter.closed ? ('after' as const) : ('array' as const), line, index };
  yield* readJsonRecords(decodeUtf8(restOf(splitter.end(), input)), file, limits, from);
}

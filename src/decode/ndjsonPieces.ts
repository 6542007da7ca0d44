import { decodeUtf8 } from './decodeUtf8.js';
import { readHead, recordTaskOptions } from './inputHead.js';
import { PieceSplitter } from '../parallel/pieceSplitter.js';
import type { NdjsonTaskOptions } from './ndjsonPieceTask.js';
import { answersInOrder } from '../parallel/pieceDriver.js';
import { piecesRecords } from './pieceRecords.js';
import { readNdjsonRecords } from './ndjsonRecords.js';
import { PIECE_BYTES, PieceParsers, restOf, unsplittableBytes, workerCount } from './pieceParsers.js';
import type { ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';

/**
 * Records of an NDJSON input, checked against their endpoint where they are read: a small input
 * on this thread (as it is read, checked by the run), a larger one cut into pieces after line
 * breaks, read and checked by the piece workers and this thread side by side.
 */
export async function* readNdjsonPieces(
  bytes: AsyncIterable<Buffer>,
  file: string,
  limits: ReadLimits,
  check: ReadCheck,
): AsyncGenerator<SourceRecord> {
  const input = bytes[Symbol.asyncIterator]();
  try {
    const head = await readHead(input);
    if (head.kind === 'failed') {
      // Bytes that are not UTF-8: the lines before them are still read, as a stream would read them.
      yield* readNdjsonRecords(
        decodeUtf8(
          (async function* () {
            yield head.bytes;
          })(),
        ),
        file,
        limits,
      );
      throw head.cause;
    }
    if (head.kind === 'whole') {
      yield* readNdjsonRecords(decodeUtf8(restOf(head.bytes, input)), file, limits);
      return;
    }
    let first = head.bytes;
    // A byte order mark opens line 1 only: dropped here, so that no piece needs to know it is the first.
    if (first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) first = first.subarray(3);
    const options: NdjsonTaskOptions = { format: 'ndjson', ...recordTaskOptions(limits, check) };
    const parsers = new PieceParsers(workerCount(), options);
    // A line longer than this has more characters than the limit: from there on the file is read as a stream,
    // holding no more.
    const splitter = new PieceSplitter('\n', PIECE_BYTES, unsplittableBytes(limits.maxRecordBytes), false);
    let base = 1;
    let index = 0;
    for await (const piece of answersInOrder(first, input, splitter, parsers)) {
      yield* piecesRecords(piece, file, base, index);
      base += piece.lineCount;
      index += piece.packed.count;
    }
    if (splitter.overflowed)
      yield* readNdjsonRecords(decodeUtf8(restOf(splitter.end(), input)), file, limits, {
        line: base - 1,
        index,
      });
  } finally {
    await input.return?.();
  }
}

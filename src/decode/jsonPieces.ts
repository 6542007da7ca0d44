import { StringDecoder } from 'node:string_decoder';
import { decodeUtf8 } from './decodeUtf8.js';
import { encodeJsonPiece, type JsonPiece, type JsonTaskOptions } from './jsonPieceTask.js';
import { readJsonRecords } from './jsonRecords.js';
import { JsonSplitter, type SplitEvent } from './jsonSplitter.js';
import { tooLarge } from './limitIssues.js';
import { INLINE_PARSE_BYTES, PIECE_BYTES, PieceParsers, restOf, workerCount } from '../parallel/pieceParsers.js';
import type { ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';

/** A place in a piece: an element the workers read (its line and text), or a record made here (a problem of the document). */
type Slot = { line: number; text: string } | { made: Omit<SourceRecord, 'index'> };

/** One piece's records, in order: its slots, the workers' answers in the element slots. */
function* piecesRecords(slots: readonly Slot[], piece: JsonPiece, file: string, from: number, raw: boolean): Generator<SourceRecord> {
  let next = 0;
  for (const [n, slot] of slots.entries()) {
    if ('made' in slot) {
      yield { ...slot.made, index: from + n };
      continue;
    }
    const { checked, value, keepsText } = piece.records[next++]!;
    const record: SourceRecord = { file, index: from + n, line: slot.line, issues: checked.issues, checked };
    if (value !== undefined) record.value = value;
    if (raw && keepsText) record.raw = { kind: 'text', text: slot.text };
    yield record;
  }
}

/**
 * Records of a JSON input, checked against their endpoint where they are read: a small input on
 * this thread (jsonRecords.ts, checked by the run); a larger one split into its elements here,
 * which the piece workers read and check, piece by piece, side by side.
 */
export async function* readJsonPieces(bytes: AsyncIterable<Buffer>, file: string, limits: ReadLimits, check: ReadCheck): AsyncGenerator<SourceRecord> {
  const input = bytes[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  try {
    while (size <= INLINE_PARSE_BYTES) {
      let step: IteratorResult<Buffer>;
      try {
        step = await input.next();
      } catch (cause) {
        // Bytes that are not UTF-8: the records before them are still read, and then it fails, as a stream would.
        const before = (async function* () {
          yield Buffer.concat(head, size);
          throw cause;
        })();
        yield* readJsonRecords(decodeUtf8(before), file, limits);
        return;
      }
      if (step.done) {
        yield* readJsonRecords(decodeUtf8(restOf(Buffer.concat(head, size), input)), file, limits);
        return;
      }
      head.push(step.value);
      size += step.value.length;
    }
    const options: JsonTaskOptions = {
      format: 'json', maxRecordSize: limits.maxRecordBytes, endpoint: check.endpoint, now: check.now.getTime(),
      values: check.needs === 'values', digest: check.needs !== 'ids',
    };
    yield* inPieces(restOf(Buffer.concat(head, size), input), file, limits, options);
  } finally {
    await input.return?.();
  }
}

async function* inPieces(bytes: AsyncIterable<Buffer>, file: string, limits: ReadLimits, options: JsonTaskOptions): AsyncGenerator<SourceRecord> {
  const parsers = new PieceParsers(workerCount(), options);
  const window = 2 * parsers.workerThreads + 2;
  const splitter = new JsonSplitter(limits.maxRecordBytes);
  const decoder = new StringDecoder('utf8');
  const pending: Slot[][] = [];
  let slots: Slot[] = [];
  let texts: string[] = [];
  let pieceSize = 0;
  let index = 0;
  const flush = () => {
    if (slots.length === 0) return;
    parsers.add(encodeJsonPiece(texts));
    pending.push(slots);
    [slots, texts, pieceSize] = [[], [], 0];
  };
  const add = (events: SplitEvent[]) => {
    for (const event of events) {
      if ('problem' in event) slots.push({ made: { file, line: event.line, issues: [event.problem] } });
      else if (event.element.tooLarge !== undefined) {
        slots.push({ made: { file, line: event.element.line, issues: [tooLarge(event.element.tooLarge, limits)] } });
      } else {
        slots.push({ line: event.element.line, text: event.element.text });
        texts.push(event.element.text);
        pieceSize += event.element.text.length;
        if (pieceSize >= PIECE_BYTES) flush();
      }
    }
  };
  async function* answered(all: boolean): AsyncGenerator<SourceRecord> {
    while (parsers.inFlight > (all ? 0 : window)) {
      const piece = (await parsers.next()) as JsonPiece;
      const done = pending.shift()!;
      yield* piecesRecords(done, piece, file, index, options.values);
      index += done.length;
    }
  }
  try {
    try {
      for await (const chunk of bytes) {
        add(splitter.push(decoder.write(chunk)));
        yield* answered(false);
      }
    } catch (cause) {
      // A read that failed (bytes that are not UTF-8): the elements read whole are answered first.
      flush();
      yield* answered(true);
      throw cause;
    }
    const rest = decoder.end();
    if (rest) add(splitter.push(rest));
    add(splitter.end());
    flush();
    yield* answered(true);
  } finally {
    await parsers.close();
  }
}

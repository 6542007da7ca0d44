import { Worker } from 'node:worker_threads';
import type { StagePlan, StagedRows } from './csvRecordStage.js';

/** What the parse worker sends back: the rows of one chunk, and at the end `done` or the parse error. */
export interface RowBatch {
  rows: string[][];
  /** The 1-based line each row starts on (blank lines and multi-line cells counted). */
  lines: number[];
  done?: true;
  /** The parse error that ended the input, with the line where the failing row starts. */
  error?: { code: string; message: string; line: number };
  /** How many chunks this batch answers (rows held back for a plan come with the answers of later chunks). */
  acks?: number;
  /** Staging: the rows built into records on the worker (then `rows` is empty). */
  staged?: StagedRows;
}

/**
 * Records built on the worker too: the header goes to `plan` (on this thread, with the schema);
 * the worker builds every row after it with that plan (csvRecordStage.ts). Undefined: stop reading.
 */
export interface Staging {
  /** The compiled csvRecordStage module, which the worker imports. */
  stageUrl: string;
  plan(header: string[], line: number): StagePlan | undefined;
}

/** What the worker posts: a batch, or (staging) the header alone, before any row. */
type WorkerMessage = RowBatch & { header?: string[]; line?: number };

/** Chunks handed to the worker and not yet consumed: bounds memory when validation is the slower side. */
const WINDOW = 4;

/**
 * Parses CSV bytes into rows of cells on a worker thread, so that parsing and validation
 * use both cores. Batches come back in input order; an error ends the stream after the rows before it.
 */
export async function* parseCsvRows(bytes: AsyncIterable<Buffer>, maxRecordSize: number, staging?: Staging): AsyncGenerator<RowBatch> {
  const workerData = staging ? { maxRecordSize, stageUrl: staging.stageUrl } : { maxRecordSize };
  const worker = new Worker(new URL('./csvParseWorker.js', import.meta.url), { workerData });
  const inbox: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let crash: Error | undefined;
  worker.on('message', (batch: WorkerMessage) => {
    inbox.push(batch);
    wake?.();
  });
  worker.on('error', (cause) => {
    crash = cause;
    wake?.();
  });
  const next = async (): Promise<WorkerMessage> => {
    while (inbox.length === 0) {
      if (crash) throw crash;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    return inbox.shift()!;
  };
  const input = bytes[Symbol.asyncIterator]();
  let inFlight = 0;
  let inputDone = false;
  const send = async () => {
    while (!inputDone && inFlight < WINDOW) {
      const step = await input.next();
      if (step.done) {
        inputDone = true;
        worker.postMessage({ end: true });
        inFlight++;
        return;
      }
      const chunk = step.value;
      const copy = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) as ArrayBuffer;
      worker.postMessage({ chunk: copy }, [copy]);
      inFlight++;
    }
  };
  try {
    await send();
    for (;;) {
      const batch = await next();
      if (batch.header) {
        const plan = staging?.plan(batch.header, batch.line ?? 1);
        if (!plan) return;
        worker.postMessage({ plan });
        continue;
      }
      inFlight -= batch.acks ?? 1;
      yield batch;
      if (batch.done || batch.error) return;
      await send();
    }
  } finally {
    await worker.terminate();
    await input.return?.();
  }
}

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { PieceReaders } from '../parallel/pieceDriver.js';
import { INLINE_PARSE_BYTES } from './inputHead.js';
import { createPieceTask, type PieceAnswer, type PieceTaskOptions } from './pieceTask.js';
import { outOfMemory, pieceWorkerLimits } from '../parallel/pieceWorkerHeap.js';
import { PieceWorkerPool } from '../parallel/pieceWorkerPool.js';
import { fastPaths } from '../fast/fastPaths.js';

/** The compiled module a worker imports: dist/ also when this code runs from src/ (the tests build it first). */
function builtUrl(url: string): string {
  if (!url.endsWith('.ts')) return url;
  const at = url.lastIndexOf('/src/');
  return `${url.slice(0, at)}/dist/${url.slice(at + '/src/'.length)}`;
}

const taskUrl = new URL('./pieceTask.js', builtUrl(import.meta.url)).href;

/** The piece workers of this process, kept from one file to the next. */
export const pieceWorkers = new PieceWorkerPool(
  new URL('../parallel/pieceWorker.js', import.meta.url),
  taskUrl,
);

/**
 * The size of the pieces handed to the workers: a message costs little beside a piece's parse, and a
 * piece's rows and records die young. Until the splitter cut each 256 KiB file read into pieces of
 * this size (it made one piece of each read), a piece's text went to V8's large-object space, freed
 * only by full collections: on two cores real 64 KiB pieces took 10% less CPU on a 200k-order dry
 * run (peak 338 -> 265 MiB) and 4% less wall time on a backfill.
 */
export const PIECE_BYTES = 64 * 1024;

/**
 * Bytes with no record boundary after which a record cannot be cut out (past any allowed record,
 * a UTF-8 character being at most 4 bytes): the rest is read as one stream on the reading thread.
 */
export function unsplittableBytes(maxRecordSize: number, pieceBytes = PIECE_BYTES): number {
  return maxRecordSize > 0 ? Math.max(4 * maxRecordSize, 8 * pieceBytes) : 0;
}

/** At most this many piece workers: past it, the thread that takes their records is the slower side. */
const MAX_WORKERS = 4;

/**
 * A worker per core: measured on two cores, that beat one worker with the reading thread parsing
 * pieces whenever it would wait (its larger heap made the collector cost more than the parse saved).
 */
export const workerCount = (): number => Math.max(1, Math.min(availableParallelism(), MAX_WORKERS));

/** The rest of an input after `first`, piece by piece as read. */
export async function* restOf(first: Buffer, input: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (let step = await input.next(); !step.done; step = await input.next()) yield step.value;
}

/** Pieces a worker holds at once: one to parse, one waiting, so it never idles between messages. */
const PER_WORKER = 2;

/**
 * Reads the pieces of one file (of any format, pieceTask.ts) on worker threads: a piece goes to a worker with
 * room for it. Answers are taken in the order the pieces were added. Workers start with the first piece.
 */
export class PieceParsers<O extends PieceTaskOptions> implements PieceReaders<PieceAnswer<O>> {
  private workers: Worker[] = [];
  private held: number[] = [];
  private readonly waiting: { seq: number; piece: Buffer; last: boolean }[] = [];
  private readonly answers = new Map<number, PieceAnswer<O>>();
  private added = 0;
  private taken = 0;
  private crash: Error | undefined;
  private wake: (() => void) | undefined;
  private closing = false;
  private inline: ReturnType<typeof createPieceTask<O>> | undefined;

  constructor(
    readonly workerThreads: number,
    private readonly options: O,
  ) {}

  /** Pieces added and not yet taken. */
  get inFlight(): number {
    return this.added - this.taken;
  }

  /** `last`: the input's last piece. Small, with no worker started yet, it is parsed here: the whole file was small. */
  add(piece: Buffer, last = false): void {
    // Without fast paths (fast/fastPaths.ts) every piece is decoded and checked here: the plain twin of the workers.
    if (!fastPaths || (last && this.workers.length === 0 && piece.length <= INLINE_PARSE_BYTES)) {
      const seq = this.added++;
      const task = (this.inline ??= createPieceTask(this.options));
      const answer = task instanceof Promise ? task.then((run) => run(piece, last)) : task(piece, last);
      if (!(answer instanceof Promise)) this.answers.set(seq, answer);
      else {
        // A task whose code loads (a mapped file's), or that reads its piece (a Parquet row group).
        answer
          .then(
            (answered) => this.answers.set(seq, answered),
            (cause: Error) => (this.crash = cause),
          )
          .finally(() => this.wake?.());
      }
      return;
    }
    if (this.workers.length < this.workerThreads) this.start();
    this.waiting.push({ seq: this.added++, piece, last });
    this.dispatch();
  }

  /** Worker threads started so far. */
  get started(): number {
    return this.workers.length;
  }

  /** The answer to the oldest piece not yet taken. */
  async next(): Promise<PieceAnswer<O>> {
    while (!this.answers.has(this.taken)) {
      if (this.crash) throw this.crash;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    const answer = this.answers.get(this.taken)!;
    this.answers.delete(this.taken++);
    return answer;
  }

  /**
   * Gives the workers back for the next file; one still parsing a piece (the reader stopped early) or crashed
   * is stopped.
   */
  async close(): Promise<void> {
    this.closing = true;
    const stopped: Promise<number>[] = [];
    this.workers.forEach((worker, n) => {
      if (this.held[n] === 0 && !this.crash) pieceWorkers.giveBack(worker);
      else stopped.push(worker.terminate());
    });
    await Promise.all(stopped);
  }

  /** Hands waiting pieces, oldest first, to workers with room. */
  private dispatch(): void {
    for (let n = 0; n < this.workers.length && this.waiting.length > 0; n++) {
      while (this.held[n]! < PER_WORKER && this.waiting.length > 0) {
        const { seq, piece, last } = this.waiting.shift()!;
        const chunk = piece.buffer.slice(
          piece.byteOffset,
          piece.byteOffset + piece.byteLength,
        ) as ArrayBuffer;
        this.workers[n]!.postMessage({ seq, chunk, last }, [chunk]);
        this.held[n]!++;
      }
    }
  }

  private start(): void {
    for (let n = 0; n < this.workerThreads; n++) {
      const worker = pieceWorkers.take(pieceWorkerLimits(this.options.maxRecordSize));
      worker.postMessage({ task: this.options });
      worker.on('message', ({ seq, ...answer }: { seq: number }) => {
        this.answers.set(seq, answer as PieceAnswer<O>);
        this.held[n]!--;
        this.dispatch();
        this.wake?.();
      });
      worker.on('error', (cause: Error & { code?: string }) => {
        this.crash =
          cause.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(this.options.maxRecordSize) : cause;
        this.wake?.();
      });
      // A worker gone without an error (exited, terminated from outside) would leave its pieces unanswered.
      worker.on('exit', (code) => {
        if (this.closing) return;
        this.crash ??= new Error(`a piece worker stopped (exit code ${code}) before answering`);
        this.wake?.();
      });
      this.workers.push(worker);
      this.held.push(0);
    }
  }
}

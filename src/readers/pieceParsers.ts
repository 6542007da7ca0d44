import { Worker } from 'node:worker_threads';
import { createChunkTask, type ChunkAnswer, type ChunkTaskOptions } from './csvChunkTask.js';

/** The compiled module a worker imports: dist/ also when this code runs from src/ (the tests build it first). */
function builtUrl(url: string): string {
  if (!url.endsWith('.ts')) return url;
  const at = url.lastIndexOf('/src/');
  return `${url.slice(0, at)}/dist/${url.slice(at + '/src/'.length)}`;
}

const taskUrl = new URL('./csvChunkTask.js', builtUrl(import.meta.url)).href;

/** Pieces a worker holds at once: one to parse, one waiting, so it never idles between messages. */
const PER_WORKER = 2;

/**
 * Parses the pieces of one CSV file on worker threads and on this thread: a piece goes to a worker
 * with room for it; when this thread would wait for an answer, it parses the next waiting piece
 * itself. Answers are taken in the order the pieces were added. Workers start with the first piece.
 */
export class PieceParsers {
  private workers: Worker[] = [];
  private held: number[] = [];
  private readonly waiting: { seq: number; piece: Buffer }[] = [];
  private readonly answers = new Map<number, ChunkAnswer>();
  private added = 0;
  private taken = 0;
  private crash: Error | undefined;
  private wake: (() => void) | undefined;
  private here: ((bytes: Buffer) => ChunkAnswer) | undefined;

  constructor(private readonly workerCount: number, private readonly options: ChunkTaskOptions) {}

  /** Pieces added and not yet taken. */
  get inFlight(): number {
    return this.added - this.taken;
  }

  add(piece: Buffer): void {
    if (this.workers.length < this.workerCount) this.start();
    this.waiting.push({ seq: this.added++, piece });
    this.dispatch();
  }

  /** The answer to the oldest piece not yet taken. */
  async next(): Promise<ChunkAnswer> {
    while (!this.answers.has(this.taken)) {
      if (this.crash) throw this.crash;
      const own = this.waiting.shift();
      if (own) {
        this.here ??= createChunkTask(this.options);
        this.answers.set(own.seq, this.here(own.piece));
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    const answer = this.answers.get(this.taken)!;
    this.answers.delete(this.taken++);
    return answer;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  /** Hands waiting pieces, oldest first, to workers with room. */
  private dispatch(): void {
    for (let n = 0; n < this.workers.length && this.waiting.length > 0; n++) {
      while (this.held[n]! < PER_WORKER && this.waiting.length > 0) {
        const { seq, piece } = this.waiting.shift()!;
        const chunk = piece.buffer.slice(piece.byteOffset, piece.byteOffset + piece.byteLength) as ArrayBuffer;
        this.workers[n]!.postMessage({ seq, chunk }, [chunk]);
        this.held[n]!++;
      }
    }
  }

  private start(): void {
    for (let n = 0; n < this.workerCount; n++) {
      const worker = new Worker(new URL('./csvParseWorker.js', import.meta.url), { workerData: { taskUrl, options: this.options } });
      worker.on('message', ({ seq, ...answer }: ChunkAnswer & { seq: number }) => {
        this.answers.set(seq, answer);
        this.held[n]!--;
        this.dispatch();
        this.wake?.();
      });
      worker.on('error', (cause) => {
        this.crash = cause;
        this.wake?.();
      });
      this.workers.push(worker);
      this.held.push(0);
    }
  }
}

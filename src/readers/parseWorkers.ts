import { Worker } from 'node:worker_threads';
import type { ChunkAnswer, ChunkTaskOptions } from './csvChunkTask.js';

/** The compiled module a worker imports: dist/ also when this code runs from src/ (the tests build it first). */
function builtUrl(url: string): string {
  if (!url.endsWith('.ts')) return url;
  const at = url.lastIndexOf('/src/');
  return `${url.slice(0, at)}/dist/${url.slice(at + '/src/'.length)}`;
}

const taskUrl = new URL('./csvChunkTask.js', builtUrl(import.meta.url)).href;

/**
 * Worker threads that parse the pieces of one CSV file side by side; answers are taken in the
 * order the pieces were sent, whichever worker finished first. Started with the first piece.
 */
export class ParseWorkers {
  private workers: Worker[] = [];
  private readonly answers = new Map<number, ChunkAnswer>();
  private sent = 0;
  private taken = 0;
  private crash: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly count: number, private readonly options: ChunkTaskOptions) {}

  /** Pieces sent and not yet taken. */
  get inFlight(): number {
    return this.sent - this.taken;
  }

  send(piece: Buffer): void {
    if (this.workers.length === 0) this.start();
    const chunk = piece.buffer.slice(piece.byteOffset, piece.byteOffset + piece.byteLength) as ArrayBuffer;
    this.workers[this.sent % this.workers.length]!.postMessage({ seq: this.sent++, chunk }, [chunk]);
  }

  /** The answer to the oldest piece not yet taken. */
  async next(): Promise<ChunkAnswer> {
    while (!this.answers.has(this.taken)) {
      if (this.crash) throw this.crash;
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

  private start(): void {
    for (let n = 0; n < this.count; n++) {
      const worker = new Worker(new URL('./csvParseWorker.js', import.meta.url), { workerData: { taskUrl, options: this.options } });
      worker.on('message', (answer: ChunkAnswer & { seq: number }) => {
        this.answers.set(answer.seq, answer);
        this.wake?.();
      });
      worker.on('error', (cause) => {
        this.crash = cause;
        this.wake?.();
      });
      this.workers.push(worker);
    }
  }
}

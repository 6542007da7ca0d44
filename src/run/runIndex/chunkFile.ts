import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/**
 * A bucket's bytes go to the file once it holds this much (all buckets together: at most `buckets` times it
 * in memory).
 */
const CHUNK_BYTES = 64 * 1024;
/** A UTF-16 unit is at most 3 bytes of UTF-8. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Text appended to numbered buckets in one throwaway file: a bucket's text is held up to a chunk,
 * then written at the end of the file; reading a bucket gathers its chunks in order. Held as UTF-8
 * bytes, outside the heap, so that records do not outlive the young generation on their way out.
 */
export class ChunkFile {
  private readonly fd: number;
  private readonly pending: (Buffer | undefined)[];
  private readonly used: number[];
  /** Each bucket's chunks on disk: offset and length in bytes. */
  private readonly chunks: [number, number][][];
  private size = 0;

  constructor(
    private readonly path: string,
    buckets: number,
  ) {
    this.fd = openSync(path, 'wx+', 0o600);
    this.pending = new Array<Buffer | undefined>(buckets).fill(undefined);
    this.used = new Array<number>(buckets).fill(0);
    this.chunks = Array.from({ length: buckets }, () => []);
  }

  append(bucket: number, text: string): void {
    const room = CHUNK_BYTES - this.used[bucket]!;
    if (text.length * MAX_UTF8_PER_UNIT > room) {
      this.writeOut(bucket);
      // Longer than any chunk: written as a chunk of its own.
      if (text.length * MAX_UTF8_PER_UNIT > CHUNK_BYTES)
        return this.writeChunk(bucket, Buffer.from(text, 'utf8'));
    }
    const buffer = (this.pending[bucket] ??= Buffer.allocUnsafe(CHUNK_BYTES));
    this.used[bucket]! += buffer.write(text, this.used[bucket]!, 'utf8');
  }

  private writeOut(bucket: number): void {
    const used = this.used[bucket]!;
    if (used === 0) return;
    this.writeChunk(bucket, this.pending[bucket]!.subarray(0, used));
    this.used[bucket] = 0;
  }

  private writeChunk(bucket: number, bytes: Buffer): void {
    writeSync(this.fd, bytes, 0, bytes.length, this.size);
    this.chunks[bucket]!.push([this.size, bytes.length]);
    this.size += bytes.length;
  }

  /** Everything appended to a bucket, in order. */
  read(bucket: number): string {
    return [...this.chunksOf(bucket)].join('');
  }

  /** A bucket's text chunk by chunk, in order: each chunk ends where an append ended. */
  *chunksOf(bucket: number): Generator<string> {
    for (const [offset, length] of this.chunks[bucket]!) {
      const bytes = Buffer.allocUnsafe(length);
      readSync(this.fd, bytes, 0, length, offset);
      yield bytes.toString('utf8');
    }
    const used = this.used[bucket]!;
    if (used > 0) yield this.pending[bucket]!.toString('utf8', 0, used);
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }
}

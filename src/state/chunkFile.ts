import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** A bucket's text goes to the file once it holds this much (all buckets together: at most `buckets` times it in memory). */
const CHUNK_CHARS = 64 * 1024;

/**
 * Text appended to numbered buckets, kept in one throwaway file: each bucket's text is held in
 * memory up to a chunk, then written at the end of the file; reading a bucket gathers its chunks
 * in order. No index to keep in order and nothing parsed while writing: a run index appends
 * hundreds of thousands of records and reads each bucket back once.
 */
export class ChunkFile {
  private readonly fd: number;
  private readonly pending: string[][];
  private readonly pendingChars: number[];
  /** Each bucket's chunks on disk: offset and length in bytes. */
  private readonly chunks: [number, number][][];
  private size = 0;

  constructor(private readonly path: string, buckets: number) {
    this.fd = openSync(path, 'wx+', 0o600);
    this.pending = Array.from({ length: buckets }, () => []);
    this.pendingChars = new Array<number>(buckets).fill(0);
    this.chunks = Array.from({ length: buckets }, () => []);
  }

  append(bucket: number, text: string): void {
    this.pending[bucket]!.push(text);
    if ((this.pendingChars[bucket]! += text.length) >= CHUNK_CHARS) this.writeOut(bucket);
  }

  private writeOut(bucket: number): void {
    const texts = this.pending[bucket]!;
    if (texts.length === 0) return;
    const bytes = Buffer.from(texts.join(''), 'utf8');
    writeSync(this.fd, bytes, 0, bytes.length, this.size);
    this.chunks[bucket]!.push([this.size, bytes.length]);
    this.size += bytes.length;
    this.pending[bucket] = [];
    this.pendingChars[bucket] = 0;
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
    if (this.pending[bucket]!.length > 0) yield this.pending[bucket]!.join('');
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }
}

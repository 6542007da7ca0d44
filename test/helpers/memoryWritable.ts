import { Writable } from 'node:stream';

/** A writable that keeps what it is given, for tests to read. */
export class MemoryWritable extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

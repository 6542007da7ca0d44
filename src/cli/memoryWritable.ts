import { Writable } from 'node:stream';

/** A writable that keeps what it is given (to hold back a report until it is known to be needed). */
export class MemoryWritable extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

import type { ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { InputSpec } from './inputSpec.js';

/**
 * Bytes read so far from input files, as stored (compressed for .gz): with the files' sizes it
 * gives a dry run's progress a total and a time left before the number of records is known.
 */
class InputMeter {
  private finished = 0;
  private readonly reading = new Set<ReadStream>();

  /**
   * Counts what `stream` reads from its file, without taking its data: a 'data' listener would set it flowing
   * before its reader is attached, and lose what came meanwhile.
   */
  watch(stream: ReadStream): void {
    this.reading.add(stream);
    stream.once('close', () => {
      this.finished += stream.bytesRead;
      this.reading.delete(stream);
    });
  }

  get bytes(): number {
    let bytes = this.finished;
    for (const stream of this.reading) bytes += stream.bytesRead;
    return bytes;
  }
}

export const inputMeter = new InputMeter();

/** The size of the inputs on disk, or undefined when one is standard input or cannot be sized. */
export async function inputBytes(specs: readonly InputSpec[]): Promise<number | undefined> {
  let total = 0;
  for (const spec of specs) {
    const path = spec.path ?? spec.name;
    if (path === '-' || spec.records !== undefined) return undefined;
    try {
      total += (await stat(path)).size;
    } catch {
      return undefined; // reported as unreadable when it is opened
    }
  }
  return total;
}

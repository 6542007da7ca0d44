import { Writable } from 'node:stream';
import type { CliIo } from './io.js';

function redacting(target: CliIo['stdout'], redact: (text: string) => string): CliIo['stdout'] {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      target.write(redact(chunk.toString()), () => done());
    },
  });
  return Object.assign(stream, { isTTY: target.isTTY === true });
}

/** The same io, with the API key removed from everything written to stdout and stderr. */
export function redactingIo(io: CliIo, redact: (text: string) => string): CliIo {
  return { ...io, stdout: redacting(io.stdout, redact), stderr: redacting(io.stderr, redact) };
}

import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { RunInput } from '../run/checkRun.js';
import type { CliIo } from './io.js';

/** Saves standard input to a file in `dir` when a run must read its inputs twice (check, then send). */
export async function spoolStdin(inputs: RunInput[], io: CliIo, dir: string): Promise<{ inputs: RunInput[]; path?: string }> {
  if (!inputs.some((input) => input.spec.name === '-')) return { inputs };
  const path = join(dir, `stdin-${process.pid}-${Date.now()}`);
  await pipeline(io.stdin, createWriteStream(path, { mode: 0o600 }));
  return { inputs: inputs.map((input) => (input.spec.name === '-' ? { ...input, spec: { ...input.spec, path } } : input)), path };
}

import { Chalk, type ChalkInstance } from 'chalk';
import type { CliIo } from './io.js';

/** Colour only for a terminal, never with NO_COLOR (no-color.org); FORCE_COLOR wins for pipes. */
export function colorFor(stream: CliIo['stdout'], env: CliIo['env']): ChalkInstance {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return new Chalk({ level: 0 });
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return new Chalk({ level: 1 });
  return new Chalk({ level: stream.isTTY === true && env.TERM !== 'dumb' ? 1 : 0 });
}

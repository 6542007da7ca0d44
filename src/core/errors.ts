import { exitCodes, type ExitCode } from './exitCodes.js';

/**
 * Operational errors: things that stop a run (bad flags, unreadable files, a refused key).
 * Bad records are never thrown; they are reported as issues.
 */
export class CollectError extends Error {
  constructor(
    message: string,
    /** Stable machine-readable code. */
    readonly code: string,
    /** The process exit code (see exitCodes.ts). */
    readonly exitCode: ExitCode,
    /** How to fix it, in one sentence. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag, a missing argument, an impossible combination: exit 2. */
export class UsageError extends CollectError {
  constructor(message: string, hint?: string) {
    super(message, 'usage', exitCodes.usage, hint);
  }
}

/** An input that cannot be opened or decoded at all: exit 2. */
export class InputError extends CollectError {
  constructor(message: string, hint?: string) {
    super(message, 'input', exitCodes.usage, hint);
  }
}

export function isCollectError(value: unknown): value is CollectError {
  return value instanceof CollectError;
}

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from '../core/errors.js';

/**
 * How one option's small file is read (the key file's rule: a key, a mapping, reason categories): its size
 * cap and the words of its refusals.
 */
export interface ConfigFileRule {
  /** The option that names the file: `--map`. */
  option: string;
  /** The most bytes it may hold, and the same in words: `1 MiB`. */
  maxBytes: number;
  limit: string;
  /** What such a file is, said when it is too large: `a key file holds one key`. */
  holds: string;
  /** How to fix a file too large, a path that cannot be read, and a file that is not a regular one. */
  tooLargeHint: string;
  pathHint: string;
  regularHint: string;
  /** A further check of the open file (a key file's permissions); throws a UsageError. */
  check?: (info: Stats) => void;
}

/** A mebibyte, for the caps. */
export const MIB = 1024 * 1024;

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  return 'a device';
}

/** At most `max` + 1 bytes of an open file: one more than allowed says it is too large. */
function readBounded(fd: number, max: number): Buffer {
  const buffer = Buffer.alloc(max + 1);
  let length = 0;
  for (let read = -1; read !== 0 && length < buffer.length; length += read)
    read = readSync(fd, buffer, length, buffer.length - length, null);
  return buffer.subarray(0, length);
}

/**
 * A small file an option names, as bytes: only a regular file under the rule's cap, opened
 * without blocking (a FIFO with no writer would wait for ever) and checked before a byte is
 * read (`/dev/zero` would be read without end). Anything else is exit 2 at once.
 */
export function readConfigFile(file: string, rule: ConfigFileRule): Buffer {
  const refuse = (problem: string, hint: string) =>
    new UsageError(`${rule.option} ${file}: ${problem}; refused`, hint);
  const unreadable = (cause: unknown) =>
    new UsageError(
      `${rule.option} ${file}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      rule.pathHint,
    );
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    throw unreadable(cause);
  }
  let bytes: Buffer;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw refuse(`is ${kindOf(info)}, not a regular file`, rule.regularHint);
    rule.check?.(info);
    if (info.size > rule.maxBytes)
      throw refuse(
        `is ${info.size.toLocaleString('en-US')} bytes; ${rule.holds} (at most ${rule.limit})`,
        rule.tooLargeHint,
      );
    bytes = readBounded(fd, rule.maxBytes);
  } catch (cause) {
    if (cause instanceof UsageError) throw cause;
    throw unreadable(cause);
  } finally {
    closeSync(fd);
  }
  if (bytes.length > rule.maxBytes)
    throw refuse(`grew past ${rule.limit} while it was read; ${rule.holds}`, rule.tooLargeHint);
  return bytes;
}

import {
  closeSync,
  constants,
  createWriteStream,
  lstatSync,
  openSync,
  readSync,
  unlinkSync,
  type WriteStream,
} from 'node:fs';
import { basename, join } from 'node:path';
import { REASON_FIELD } from '../core/rejectsField.js';
import { inputFormats } from '../decode/inputFormats.js';
import type { InputSpec } from '../decode/openInput.js';

/** Created, never opened: O_EXCL fails on anything already there, a symbolic link (even a dangling one) included. */
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** Appended to, never through a symbolic link; a FIFO planted there fails rather than blocks. */
const APPEND =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

function stream(path: string, flags: number): WriteStream {
  // fs.open takes numeric flags (O_EXCL, O_NOFOLLOW); createWriteStream's typing names only the string ones.
  const opened = createWriteStream(path, { flags: flags as unknown as string, mode: 0o600 });
  opened.on('error', () => {}); // reported by close()
  return opened;
}

/**
 * The file of --rejects for each input: PATH itself for one input, PATH/NAME (without .gz) for several (or
 * `folder`).
 */
export function rejectsPaths(
  target: string,
  inputs: readonly InputSpec[],
  folder?: boolean,
): Map<string, string> {
  const names = [...new Set(inputs.map((spec) => spec.name))];
  const inFolder = folder ?? names.length > 1;
  return new Map(
    names.map((name) => {
      const { format } = inputs.find((spec) => spec.name === name)!;
      // A format whose rejects are written in another one (Parquet's, as CSV) gets that one's extension too.
      const { rejects } = inputFormats[format];
      const own = basename(name === '-' ? `stdin.${format}` : name).replace(/\.gz$/i, '');
      const file = rejects === format ? own : `${own}.${rejects}`;
      return [name, inFolder ? join(target, file) : target];
    }),
  );
}

/** A rejects line is at most a record (--max-record-bytes) and its reasons: past this, a file is not one. */
const MAX_FIRST_LINES = 8 * 1024 * 1024;

/** The first two lines of a file, read no further than MAX_FIRST_LINES. */
function firstLines(path: string): string[] {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    let breaks = 0;
    const buffer = Buffer.alloc(64 * 1024);
    for (
      let read = readSync(fd, buffer);
      read > 0 && total < MAX_FIRST_LINES && breaks < 2;
      read = readSync(fd, buffer)
    ) {
      const chunk = Buffer.from(buffer.subarray(0, read));
      chunks.push(chunk);
      total += read;
      for (const byte of chunk) if (byte === 0x0a) breaks++;
    }
    return Buffer.concat(chunks).toString('utf8').split('\n').slice(0, 2);
  } finally {
    closeSync(fd);
  }
}

const hasReason = (line: string | undefined): boolean => {
  try {
    const value: unknown = JSON.parse((line ?? '').replace(/,\s*$/, ''));
    return typeof value === 'object' && value !== null && Object.hasOwn(value, REASON_FIELD);
  } catch {
    return false;
  }
};

/**
 * Whether a file is a rejects file collect wrote (so a re-run may replace it): empty, a CSV whose
 * header ends with the collect_reason column, NDJSON or a JSON array whose first record has it.
 */
export function isRejectsFile(path: string): boolean {
  const [first = '', second] = firstLines(path);
  const line = first.replace(/^\uFEFF/, '').replace(/\r$/, '');
  if (line.trim() === '' && second === undefined) return true;
  if (new RegExp(`(^|\\W)${REASON_FIELD}$`).test(line)) return true;
  if (line.trim() === '[]') return true;
  return hasReason(line.trim() === '[' ? second : line);
}

/**
 * A new rejects file at `path`: one an earlier run wrote there is removed first; anything else
 * there (a user's file, a link, a FIFO) makes the creation fail, reported when the file is closed.
 */
export function createRejectsFile(path: string): WriteStream {
  try {
    if (lstatSync(path).isFile() && isRejectsFile(path)) unlinkSync(path);
  } catch {
    // Absent, or unreadable: the exclusive creation below says what is wrong.
  }
  return stream(path, NEW_FILE);
}

/** The --results file, appended to (created 0600 when absent), never through a symbolic link. */
export const appendResultsFile = (path: string): WriteStream => stream(path, APPEND);

import { closeSync, constants, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { writeFileWhole } from './fileWhole.js';
import { outputFileError } from '../core/operationalError.js';
import { HTML_REPORT_MARK } from '../report/formatHtml.js';

/** Bytes of a file's start and end read to tell a report collect wrote. */
const PEEK = 4096;

/** What a report of each format collect writes shows at its start, or its end (github's and pretty's last line). */
const heads = [
  (head: string) => head.startsWith(HTML_REPORT_MARK),
  (head: string) => /^<\?xml [^>]*>\n<testsuites name="collect/.test(head),
  (head: string) => /^\{\n {2}"version": 1,\n {2}"summary"/.test(head),
  (head: string) => head.startsWith('{\n  "$schema": "https://json.schemastore.org/sarif-2.1.0.json"'),
];
const tails = [
  /collect: [\d,]+ records?, \d+ valid, \d+ invalid, /,
  /(✔|✖|✖ stopped:|✖ delivery failed:|⚠ interrupted:) [\d,]+ records?: \d+ valid/,
];

/**
 * Whether the file at `path` is a report collect wrote (so a session may replace it): empty (as a
 * session leaves it while it runs), or starting (or, for pretty and github, ending) as collect's
 * reports do. Read without following a link or blocking on a FIFO; an unreadable one is not known to be.
 */
export function isSessionReport(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const { size } = fstatSync(fd);
    if (size === 0) return true;
    const read = (at: number) => {
      const buffer = Buffer.alloc(Math.min(PEEK, size));
      return buffer.subarray(0, readSync(fd!, buffer, 0, buffer.length, at)).toString('utf8');
    };
    const head = read(0);
    if (heads.some((test) => test(head))) return true;
    const tail = read(Math.max(0, size - PEEK));
    return tails.some((pattern) => pattern.test(tail));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const cannot = (file: string, cause: unknown) => outputFileError('--report', file, cause);

/**
 * Starts a session's report file: an earlier session's report (refuseUnsafeOutputs let only one
 * through) is removed, and an empty file made in its place, 0600 and never through a link, so a
 * report left from an earlier session is never taken for this one's.
 */
export function startReportFile(file: string): void {
  try {
    rmSync(file, { force: true });
    closeSync(
      openSync(
        file,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
        0o600,
      ),
    );
  } catch (cause) {
    throw cannot(file, cause);
  }
}

/** Writes the report file whole (`writeFileWhole`: 0600, renamed over it once complete, never through a link). */
export function writeReportFile(file: string, text: string): void {
  writeFileWhole(file, [text], (cause) => cannot(file, cause));
}

import { closeSync, constants, openSync, readSync } from 'node:fs';
import { outputFileError } from '../core/operationalError.js';
import { HTML_REPORT_MARK } from '../report/formatHtml.js';
import { writeFileWhole } from './fileWhole.js';

/**
 * Whether the file at `path` is an HTML report collect wrote (it starts with HTML_REPORT_MARK); an unreadable
 * one is not known to be.
 */
export function isHtmlReport(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const head = Buffer.alloc(HTML_REPORT_MARK.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('utf8') === HTML_REPORT_MARK;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes the --report-html file whole (`writeFileWhole`), each piece through `redact` (the key, should a
 * record quote it).
 */
export function writeHtmlReport(
  path: string,
  chunks: Iterable<string>,
  redact: (text: string) => string,
): void {
  writeFileWhole(path, chunks, (cause) => outputFileError('--report-html', path, cause), redact);
}

import { closeSync, constants, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { outputFileError } from '../core/operationalError.js';
import { HTML_REPORT_MARK } from '../report/formatHtml.js';

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
 * Writes the --report-html file: into a new file beside it (0600: a report quotes input values),
 * renamed over it once whole, so a reader never sees half a report and a failed run leaves the
 * last one. Each piece goes through `redact` (the key, should a record quote it).
 */
export function writeHtmlReport(
  path: string,
  chunks: Iterable<string>,
  redact: (text: string) => string,
): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    let text = '';
    for (const chunk of chunks) {
      text += chunk;
      if (text.length < 64 * 1024) continue;
      writeSync(fd, redact(text));
      text = '';
    }
    if (text !== '') writeSync(fd, redact(text));
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw outputFileError('--report-html', path, cause);
  }
}

import type { Progress } from '../run/runRequest.js';
import type { CliIo } from './io.js';

export type { Progress } from '../run/runRequest.js';

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const mebibytes = (bytes: number) =>
  bytes >= 1048576 ? `${(bytes / 1048576).toFixed(0)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}

/** Questions being asked (confirmSending.ts): no progress line is drawn while one waits for its answer. */
let questions = 0;
/** Clears the progress line last drawn, while it is on the screen. */
let clearDrawn: (() => void) | undefined;

/** Clears the progress line and stops every one drawing until the returned function is called (by the one who asks). */
export function holdProgress(): () => void {
  clearDrawn?.();
  clearDrawn = undefined;
  questions++;
  let released = false;
  return () => {
    if (!released) questions--;
    released = true;
  };
}

/** The inputs' size on disk and how much of it has been read: a total before the records are counted. */
export interface InputSize {
  total: number;
  read: () => number;
}

/**
 * One line on standard error, only when it is a terminal: records per second, done of total
 * when known (or the share of the input's bytes read), errors, and time left.
 */
export function startProgress(io: CliIo, label: string, total?: number, size?: InputSize): Progress {
  if (io.stderr.isTTY !== true) return { tick: () => {}, stop: () => {} };
  const readAtStart = size?.read() ?? 0;
  let done = 0;
  let errors = 0;
  const started = Date.now();
  const clear = () => io.stderr.write('\r\u001b[2K');
  const draw = () => {
    if (questions > 0) return;
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = done / seconds;
    const parts = [
      `${label} ${number(done)}${total ? ` of ${number(total)}` : ''} records`,
      `${number(rate)}/s`,
    ];
    if (errors > 0) parts.push(`${number(errors)} errors`);
    if (total && rate > 0) parts.push(`${duration((total - done) / rate)} left`);
    else if (!total && size && size.total > 0) {
      const share = Math.min(1, (size.read() - readAtStart) / size.total);
      parts[0] = `${parts[0]} (${Math.floor(share * 100)}% of ${mebibytes(size.total)})`;
      if (share > 0) parts.push(`${duration((seconds * (1 - share)) / share)} left`);
    }
    io.stderr.write(`\r\u001b[2K${parts.join(' · ')}`);
    clearDrawn = clear;
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    tick: (failed = false) => {
      done++;
      if (failed) errors++;
    },
    stop: () => {
      clearInterval(timer);
      if (clearDrawn === clear) clearDrawn = undefined;
      clear();
    },
  };
}

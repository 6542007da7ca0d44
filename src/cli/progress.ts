import type { CliIo } from './io.js';

/** A one-line record counter on standard error, only when it is a terminal. */
export function startProgress(io: CliIo, label: string): { tick: () => void; stop: () => void } {
  if (io.stderr.isTTY !== true) return { tick: () => {}, stop: () => {} };
  let count = 0;
  const started = Date.now();
  const draw = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    io.stderr.write(`\r\u001b[2K${label} ${count.toLocaleString('en-US')} records · ${Math.round(count / seconds).toLocaleString('en-US')}/s`);
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    tick: () => void count++,
    stop: () => {
      clearInterval(timer);
      io.stderr.write('\r\u001b[2K');
    },
  };
}

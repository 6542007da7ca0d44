import { describe, expect, it, vi } from 'vitest';
import { MemoryWritable } from '../../test/helpers/memoryIo.js';
import type { CliIo } from './io.js';
import { holdProgress, startProgress } from './progress.js';

function io(tty: boolean) {
  const stderr = Object.assign(new MemoryWritable(), { isTTY: tty });
  return { stderr, io: { stderr } as unknown as CliIo };
}

describe('startProgress', () => {
  it('draws nothing when standard error is not a terminal', () => {
    const { stderr, io: cli } = io(false);
    const progress = startProgress(cli, 'sent', 10);
    progress.tick();
    progress.stop();
    expect(stderr.text).toBe('');
  });
  it('shows done of total, rate, errors and time left on a terminal', () => {
    vi.useFakeTimers();
    try {
      const { stderr, io: cli } = io(true);
      const progress = startProgress(cli, 'sent', 100);
      for (let i = 0; i < 25; i++) progress.tick(i < 2);
      vi.advanceTimersByTime(1000);
      progress.stop();
      expect(stderr.text).toMatch(/sent 25 of 100 records · \d+\/s · 2 errors · \d+s left/);
    } finally {
      vi.useRealTimers();
    }
  });
  it('shows the share of the input read and the time left while the records are not yet counted', () => {
    vi.useFakeTimers();
    try {
      const { stderr, io: cli } = io(true);
      let read = 1000;
      const progress = startProgress(cli, 'checked', undefined, { total: 4 * 1048576, read: () => read });
      for (let i = 0; i < 25; i++) progress.tick();
      read += 1048576;
      vi.advanceTimersByTime(1000);
      progress.stop();
      expect(stderr.text).toMatch(/checked 25 records \(25% of 4 MiB\) · \d+\/s · 3s left/);
    } finally {
      vi.useRealTimers();
    }
  });
  it('clears its line and draws nothing while a question holds it, then draws again', () => {
    vi.useFakeTimers();
    try {
      const { stderr, io: cli } = io(true);
      const progress = startProgress(cli, 'checked');
      progress.tick();
      vi.advanceTimersByTime(250);
      expect(stderr.text).toMatch(/checked 1 records/);
      const release = holdProgress();
      expect(stderr.text.endsWith('\r\u001b[2K')).toBe(true);
      const held = stderr.text.length;
      vi.advanceTimersByTime(2000);
      expect(stderr.text.length).toBe(held);
      release();
      release(); // a second release is no second question answered
      vi.advanceTimersByTime(250);
      expect(stderr.text.slice(held)).toMatch(/checked 1 records/);
      progress.stop();
    } finally {
      vi.useRealTimers();
    }
  });
  it('clears nothing when no line is on the screen', () => {
    const { stderr, io: cli } = io(true);
    startProgress(cli, 'checked').stop();
    const before = stderr.text;
    holdProgress()();
    expect(stderr.text).toBe(before);
  });
});

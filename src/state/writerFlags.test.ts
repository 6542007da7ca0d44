import { describe, expect, it } from 'vitest';
import { WriterFlags } from './writerFlags.js';

/** The writer thread's side of the flags (stateWriterWorker.js): committed, failed, closed, statements. */
const writerSide = (flags: WriterFlags) => new Int32Array(flags.shared);

describe("the state writer's shared flags", () => {
  it('read what the writer thread stores', () => {
    const flags = WriterFlags.create();
    expect([flags.committed, flags.failed, flags.closed]).toEqual([0, false, false]);
    const writer = writerSide(flags);
    writer[0] = 3;
    writer[1] = 1;
    writer[2] = 1;
    expect([flags.committed, flags.failed, flags.closed]).toEqual([3, true, true]);
  });

  it('tell a writer that runs statements from one that has shown no sign of life for the stall time', async () => {
    const flags = WriterFlags.create();
    const alive = flags.liveness(40);
    expect(alive()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(alive()).toBe(false);
    writerSide(flags)[3]! += 1; // a statement run
    expect(alive()).toBe(true);
  });
});

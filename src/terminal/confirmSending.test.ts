import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryWritable } from '../../test/helpers/memoryIo.js';
import { confirmSending, type Question } from './confirmSending.js';
import type { CliIo } from './io.js';

function terminal(tty = true) {
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  const stderr = Object.assign(new MemoryWritable(), { isTTY: tty });
  let interrupt = () => {};
  const io = {
    stdin,
    stderr,
    onInterrupt: (handler: () => void) => {
      interrupt = handler;
      return () => (interrupt = () => {});
    },
  } as unknown as CliIo;
  return { io, stdin, stderr, interrupt: () => interrupt() };
}

const question = (yes = false): Question => ({
  shown: 'POST /v2/order/mark_fraudulent\n{"order_id": "ORD-\u001b[2J1"}\n',
  warnings: ['fraud-after-service-decline: not checked'],
  question: 'Send this fraud mark?',
  yes,
  what: 'a fraud mark',
});

describe('confirmSending', () => {
  it('shows what is sent (escaped) and the warnings, then asks; only y or yes is a yes', async () => {
    for (const [typed, expected] of [
      ['y\n', true],
      ['YES\n', true],
      ['n\n', false],
      ['\n', false],
      ['yep\n', false],
    ] as const) {
      const { io, stdin, stderr } = terminal();
      const answer = confirmSending(io, question());
      stdin.write(typed);
      expect(await answer).toBe(expected);
      expect(stderr.text).toBe(
        'POST /v2/order/mark_fraudulent\n{"order_id": "ORD-\\u001b[2J1"}\nwarning: ' +
          'fraud-after-service-decline: not checked\nSend this fraud mark? [y/N] ',
      );
    }
  });
  it('with --yes shows the same and asks nothing', async () => {
    const { io, stderr } = terminal(false);
    expect(await confirmSending(io, question(true))).toBe(true);
    expect(stderr.text).not.toContain('[y/N]');
    expect(stderr.text).toContain('warning: fraud-after-service-decline');
  });
  it('Ctrl-C at the question is a no, and ends its line', async () => {
    const { io, stderr, interrupt } = terminal();
    const answer = confirmSending(io, question());
    interrupt();
    expect(await answer).toBe(false);
    expect(stderr.text).toMatch(/\[y\/N\] \r\n$/);
  });
  it('the end of input (Ctrl-D) is a no, not a question left waiting', async () => {
    const { io, stdin, stderr } = terminal();
    const answer = confirmSending(io, question());
    stdin.end();
    expect(await answer).toBe(false);
    expect(stderr.text).toMatch(/\[y\/N\] \n$/);
  });
  it('never reads a pipe as an answer', async () => {
    const { io, stdin } = terminal(false);
    stdin.write('y\n');
    await expect(confirmSending(io, question())).rejects.toThrow(
      'refusing to send a fraud mark without confirmation',
    );
  });
});

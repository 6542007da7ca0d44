/**
 * `collect fraud --order-id` on a real pseudo-terminal, as an analyst sees it: the question stays
 * the last line until it is answered, and the answer is followed by a short account of what was
 * sent and what the service said, not a file run's report.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { freshStateDir } from './helpers/memoryIo.js';
import { onTerminal, type Screen } from './helpers/terminal.js';

const QUESTION = 'Send this fraud mark? [y/N]';
const key = { COLLECT_API_KEY: 'k-fraud-on-terminal' };
const mark = (url: string, ...extra: string[]) => [
  'fraud',
  '--order-id',
  'ORD-7',
  '--type',
  'chargeback',
  '--base-url',
  url,
  '--state',
  freshStateDir(),
  ...extra,
];

const service = (reply: { status: number; body: unknown }) => startServer(() => reply);

/** The lines after the question: what the run printed once it was answered. */
function afterQuestion(screen: Screen): string[] {
  const at = screen.lines.findIndex((line) => line.startsWith(QUESTION));
  expect(at).toBeGreaterThanOrEqual(0);
  return screen.lines.slice(at + 1).filter((line) => line !== '');
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('collect fraud --order-id on a terminal', () => {
  it(
    'keeps the question the last line while it waits, then says what was sent and what the service ' +
      'answered',
    async () => {
      const server = await service({ status: 201, body: { message: 'Order marked as fraudulent' } });
      try {
        const session = onTerminal(mark(server.url), key);
        await session.waitFor(`${QUESTION} `);
        // Long enough for any progress line (drawn every 250 ms) to have overwritten the question.
        await sleep(1000);
        const asking = await session.screen();
        expect(asking.lines.at(-1)).toBe(QUESTION);
        expect(asking.cursor).toEqual({ row: asking.lines.length - 1, col: QUESTION.length + 1 });
        expect(session.output()).not.toContain('records');
        session.type('y\r');
        expect(await session.exited).toBe(0);
        const screen = await session.screen();
        const text = screen.lines.join('\n');
        expect(afterQuestion(screen)).toEqual([
          'the service answered:',
          '{',
          '  "message": "Order marked as fraudulent"',
          '}',
          '✔ sent: the service accepted the fraud mark (HTTP 201, 1 attempt)',
        ]);
        // The warning of §1.5 is said once, before the question; no file run's notes.
        expect(occurrences(text, 'fraud-after-service-decline')).toBe(1);
        expect(text.indexOf('fraud-after-service-decline')).toBeLessThan(text.indexOf(QUESTION));
        expect(text).not.toContain('unknown-order');
        expect(text).not.toContain('(got ');
        expect(server.requests).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );

  it('answering n sends nothing, says so, and exits 1', async () => {
    const server = await service({ status: 201, body: { message: 'ok' } });
    try {
      const session = onTerminal(mark(server.url), key);
      await session.waitFor(`${QUESTION} `);
      session.type('n\r');
      expect(await session.exited).toBe(1);
      expect(afterQuestion(await session.screen())).toEqual(['✖ nothing sent: you answered no']);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('Ctrl-C at the question sends nothing and exits 130', async () => {
    const server = await service({ status: 201, body: { message: 'ok' } });
    try {
      const session = onTerminal(mark(server.url), key);
      await session.waitFor(`${QUESTION} `);
      session.type('\u0003');
      expect(await session.exited).toBe(130);
      expect(afterQuestion(await session.screen()).at(-1)).toBe('⚠ interrupted: the fraud mark was not sent');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it("shows a rejection with the service's answer escaped, in colour unless NO_COLOR is set", async () => {
    const server = await service({
      status: 404,
      body: { error_message: 'order ORD-7 not found \u001b[2J\u009b31m' },
    });
    try {
      for (const noColor of [false, true]) {
        const session = onTerminal(mark(server.url, '--yes'), {
          ...key,
          ...(noColor ? { NO_COLOR: '1' } : {}),
        });
        expect(await session.exited).toBe(1);
        const screen = await session.screen();
        expect(screen.lines).toContain(
          '✖ sent, not accepted: the service rejected the fraud mark (HTTP 404, 1 attempt)',
        );
        expect(screen.lines).toContain('  "error_message": "order ORD-7 not found \\u001b[2J\\u009b31m"');
        // With --yes the record and the warning are still shown, and nothing is asked.
        expect(screen.lines.join('\n')).not.toContain(QUESTION);
        expect(occurrences(screen.lines.join('\n'), 'fraud-after-service-decline')).toBe(1);
        if (noColor) expect(session.output()).not.toContain('\u001b[');
        else expect(session.output()).toContain('\u001b[31m');
      }
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

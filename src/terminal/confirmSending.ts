import { createInterface } from 'node:readline/promises';
import { UsageError } from '../core/errors.js';
import { terminalLines } from '../core/terminalText.js';
import type { CliIo } from './io.js';
import { holdProgress } from './progress.js';

/** Flags of every command that asks before sending (cli/prompt.ts declares them). */
export interface AskingFlags {
  yes?: boolean;
}

/** No one can answer: standard input is not a terminal. */
export const refusal = (what: string) =>
  new UsageError(
    `refusing to send ${what} without confirmation: standard input is not a terminal`,
    'add --yes when no one is at a terminal to confirm',
  );

/** One question before sending. */
export interface Question {
  /** What would be sent, shown before the question (and with --yes all the same); escaped here. */
  shown: string;
  /** What the rules could not check, said once before the question. */
  warnings: readonly string[];
  /** `Send this fraud mark?`: ` [y/N] ` is added. */
  question: string;
  /** --yes: show what is sent, and send without asking. */
  yes: boolean;
  /** What is sent, for the refusal should no one be able to answer. */
  what: string;
}

/**
 * Shows what would be sent and asks: every progress line stops and is cleared first, so the
 * question is the last line until it is answered; the answer (typed, echoed by the terminal) ends
 * its line. Yes only for `y` or `yes`; Ctrl-C (the run then ends as interrupted, 130) or the end
 * of input is a no.
 */
export async function confirmSending(io: CliIo, question: Question): Promise<boolean> {
  const release = holdProgress();
  try {
    io.stderr.write(terminalLines(question.shown));
    for (const warning of question.warnings) io.stderr.write(`warning: ${terminalLines(warning)}\n`);
    if (question.yes) return true;
    // Declared commands never get here without a terminal; a pipe is never read as an answer.
    if (io.stdin.isTTY !== true) throw refusal(question.what);
    return await answer(io, `${terminalLines(question.question)} [y/N] `);
  } finally {
    release();
  }
}

async function answer(io: CliIo, question: string): Promise<boolean> {
  const reader = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  const abort = new AbortController();
  const stopListening = io.onInterrupt(() => abort.abort());
  // Ctrl-D: the input ends, and readline would leave the question unanswered for ever.
  const ended = new Promise<undefined>((resolve) => reader.once('close', () => resolve(undefined)));
  try {
    const text = await Promise.race([reader.question(question, { signal: abort.signal }), ended]);
    if (text !== undefined) return /^y(es)?$/i.test(text.trim());
    io.stderr.write('\n');
    return false;
  } catch (cause) {
    // Cancelled by Ctrl-C: readline itself ends the question's line.
    if (!abort.signal.aborted) throw cause;
    return false;
  } finally {
    stopListening();
    reader.close();
  }
}

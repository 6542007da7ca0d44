import type { ChalkInstance } from 'chalk';
import { exitCodes, type ExitCode } from '../core/exitCodes.js';

/**
 * The verdict of every report people read: its last unindented line, marked from the run's exit
 * code alone, so the words and the code never disagree (a green check is exit 0, and only 0).
 * Lines after it are indented details (the delivery counts, a fix).
 */
export function verdictLine(code: ExitCode, text: string, color: ChalkInstance): string {
  switch (code) {
    case exitCodes.ok:
      return `${color.green.bold('✔')} ${text}`;
    case exitCodes.invalid:
      return `${color.red.bold('✖')} ${text}`;
    case exitCodes.deliveryFailed:
      return `${color.red.bold('✖ delivery failed:')} ${text}`;
    case exitCodes.interrupted:
      return `${color.yellow.bold('⚠ interrupted:')} ${text}`;
    default:
      return `${color.red.bold('✖ stopped:')} ${text}`;
  }
}

/** The mark a verdict line starts with for an exit code (for checks of a report's last verdict). */
export const verdictMarks: Readonly<Record<ExitCode, string>> = {
  [exitCodes.ok]: '✔',
  [exitCodes.invalid]: '✖',
  [exitCodes.usage]: '✖ stopped:',
  [exitCodes.deliveryFailed]: '✖ delivery failed:',
  [exitCodes.internal]: '✖ stopped:',
  [exitCodes.interrupted]: '⚠ interrupted:',
};

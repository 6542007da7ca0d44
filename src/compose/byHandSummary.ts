import type { ChalkInstance } from 'chalk';
import type { ExitCode } from '../core/exitCodes.js';
import type { Issue } from '../core/issue.js';
import { shorten } from '../core/suggest.js';
import { flowRules } from '../flow/rules/index.js';
import type { Report } from '../report/report.js';
import { verdictLine } from '../report/verdictLine.js';
import type { Outcome } from '../send/sender.js';
import type { SetupFailure } from '../send/setupFailure.js';
import { parseBody } from '../send/responseBody.js';
import { terminalLines as forTerminal } from '../core/terminalText.js';

/** What one record typed by hand came to: the run's report, and the one answer of the service, if it was sent. */
export interface ByHandRun {
  /** What the record is called (`fraud mark`). */
  noun: string;
  dryRun: boolean;
  /** The record and the warnings were shown before sending (the question, or --yes): not said again. */
  previewed: boolean;
  report: Report;
  declined: boolean;
  interrupted: boolean;
  halted?: SetupFailure;
  outcome?: Outcome;
  /** The run's exit code: the verdict line's mark. */
  exitCode: ExitCode;
}

/** An answer is shown whole up to this many lines; --results keeps all of it. */
const ANSWER_LINES = 40;
const ANSWER_CHARS = 4000;

const warnedRules = new Set(flowRules.filter((rule) => rule.warnBeforeSending).map((rule) => rule.code));
const attempts = (count: number) => `${count} attempt${count === 1 ? '' : 's'}`;

/** The service's answer as it came (JSON indented, like the Stripe CLI shows a call's result), escaped and bounded. */
function answerLines(text: string): string[] {
  const body = parseBody(text);
  const shown = forTerminal(body === undefined ? text.trim() : JSON.stringify(body, null, 2));
  if (shown === '') return ['the service answered with an empty body'];
  const lines = shown.slice(0, ANSWER_CHARS).split('\n');
  const cut = lines.length > ANSWER_LINES || shown.length > ANSWER_CHARS;
  return [
    'the service answered:',
    ...lines.slice(0, ANSWER_LINES),
    ...(cut ? ['… (cut here; --results FILE keeps the whole answer)'] : []),
  ];
}

function issueLines(issue: Issue, color: ChalkInstance): string[] {
  const mark = issue.severity === 'error' ? color.red('✖ error  ') : color.yellow('⚠ warning');
  const field = issue.path === '' ? '' : `${color.bold(issue.path)}  `;
  // A value is shown only when it is the field's own (a rule about two fields carries the whole record).
  const got =
    issue.path !== '' &&
    issue.value !== undefined &&
    (typeof issue.value !== 'object' || issue.value === null)
      ? color.dim(` (got ${forTerminal(shorten(issue.value))})`)
      : '';
  const lines = [`  ${mark} ${field}${forTerminal(issue.message)}${got}  ${color.dim(`[${issue.code}]`)}`];
  if (issue.hint) lines.push(`            ${color.cyan('fix:')} ${issue.hint}`);
  return lines;
}

/** The verdict's words (its mark comes from the exit code), what comes before it, and the indented details after it. */
interface Account {
  before?: string[];
  verdict: string;
  after?: string[];
}

/** What the service did with the record it was sent. */
function sentAccount(run: ByHandRun, outcome: Outcome, color: ChalkInstance): Account {
  const fix = (text: string) => `  ${color.cyan('fix:')} ${text}`;
  switch (outcome.kind) {
    case 'accepted':
      return {
        before: answerLines(outcome.text),
        verdict: `sent: the service accepted the ${run.noun} (HTTP ${outcome.status}, ${attempts(outcome.attempts)})`,
        after: outcome.decision ? [`  decision: ${forTerminal(outcome.decision)}`] : [],
      };
    case 'rejected':
      return {
        before: answerLines(outcome.text),
        verdict:
          `sent, not accepted: the service rejected the ${run.noun} (HTTP ${outcome.status}, ` +
          `${attempts(outcome.attempts)})`,
        after: [fix(`correct the ${run.noun} as the answer says and run the command again`)],
      };
    case 'refused':
      return {
        verdict: `the service refused the API key (HTTP ${outcome.status})`,
        after: [fix('check COLLECT_API_KEY or --api-key-file, and --base-url')],
      };
    case 'failed':
      return {
        verdict: `${forTerminal(outcome.reason)} (${attempts(outcome.attempts)})`,
        after: [
          fix(
            run.halted
              ? `${run.halted.hint}; then run the same command again`
              : 'run the same command again; check the service and the network',
          ),
        ],
      };
    case 'vetoed':
      return {
        verdict: `nothing sent: ${forTerminal(outcome.message)} ${color.dim(`[${outcome.code}]`)}`,
      };
    default:
      return {
        verdict: `nothing sent: ${forTerminal(outcome.reason)}`,
        after: run.halted ? [fix(run.halted.hint)] : [],
      };
  }
}

/** Why nothing was sent, when the service was never asked. */
function unsentAccount(run: ByHandRun, color: ChalkInstance): Account {
  const { summary, notes } = run.report;
  if (summary.invalid > 0) return { verdict: `nothing sent: the ${run.noun} is not valid (see above)` };
  if (run.interrupted) return { verdict: `the ${run.noun} was not sent` };
  if (run.declined) return { verdict: `nothing sent: you answered no` };
  if (run.halted)
    return {
      verdict: `nothing sent: ${forTerminal(run.halted.summary)}`,
      after: [`  ${color.cyan('fix:')} ${run.halted.hint}`],
    };
  if (run.dryRun) return { verdict: 'valid; nothing sent (--dry-run)' };
  if (notes.some((note) => note.code === 'rejected-before')) {
    return {
      verdict: `nothing sent: the service rejected this same ${run.noun} in an earlier run (the state remembers it)`,
      after: [`  ${color.cyan('fix:')} correct it, or add --resend to send it again as it is`],
    };
  }
  if (summary.skipped > 0)
    return {
      verdict:
        `nothing sent: the service already accepted this same ${run.noun} in an earlier run (the ` +
        `state remembers it); --resend sends it again`,
    };
  return { verdict: 'nothing sent' };
}

/**
 * The short account of one record typed by hand, in place of a file run's report: its problems
 * (unless the preview showed them), then what was sent and what the service answered, or why
 * nothing was sent. No file-run notes: only the rules that must be heard before sending.
 */
export function byHandSummary(run: ByHandRun, color: ChalkInstance): string {
  const out: string[] = [];
  if (!run.previewed) {
    for (const issue of run.report.issues) out.push(...issueLines(issue, color));
    for (const note of run.report.notes)
      if (warnedRules.has(note.code))
        out.push(`  ${color.yellow('⚠ warning')} ${note.code}: ${note.message}`);
  }
  const account = run.outcome ? sentAccount(run, run.outcome, color) : unsentAccount(run, color);
  out.push(
    ...(account.before ?? []),
    verdictLine(run.exitCode, account.verdict, color),
    ...(account.after ?? []),
  );
  return `${out.join('\n')}\n`;
}

import type { ChalkInstance } from 'chalk';
import { githubChunks, type GithubOptions } from './formatGithub.js';
import { htmlChunks, type HtmlOptions } from './formatHtml.js';
import { jsonChunks } from './formatJson.js';
import { junitChunks } from './formatJunit.js';
import { prettyChunks, type PrettyOptions } from './formatPretty.js';
import { sarifChunks } from './formatSarif.js';
import { sessionJunitChunks } from './sessionJunit.js';
import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';

export const reportFormats = ['pretty', 'json', 'junit', 'github', 'sarif', 'html'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** Options of the formats that have some: pretty's, html's (the run's insights), github's (the job summary). */
export type FormatOptions = PrettyOptions &
  HtmlOptions &
  GithubOptions & {
    /** The report is a sandbox session's: its "files" are requests (junit names its tests after them). */
    session?: boolean;
  };

/**
 * How a format is written: the report piece by piece, with every one of `issues`; only pretty reads colour,
 * pretty, html and github options.
 */
export type Formatter = (
  report: Report,
  issues: ReportIssues,
  color: ChalkInstance,
  options: FormatOptions,
) => Iterable<string>;

/** Every format's formatter: a format added to reportFormats without one does not compile. */
export const formatters: Readonly<Record<ReportFormat, Formatter>> = {
  pretty: prettyChunks,
  json: (report, issues) => jsonChunks(report, issues),
  junit: (report, issues, _color, options) =>
    options.session ? sessionJunitChunks(report, issues) : junitChunks(report, issues),
  github: (report, issues, _color, options) => githubChunks(report, issues, options),
  sarif: (report, issues) => sarifChunks(report, issues),
  html: (report, issues, _color, options) => htmlChunks(report, issues, options),
};

/**
 * A report in a format, piece by piece, with every one of `issues` (which may be read back from disk): write
 * the pieces as they come.
 */
export function reportChunks(
  report: Report,
  issues: ReportIssues,
  format: ReportFormat,
  color: ChalkInstance,
  options: FormatOptions = {},
): Iterable<string> {
  return formatters[format](report, issues, color, options);
}

/** A report held whole in memory, in a format, as one text. */
export function formatReport(
  report: Report,
  format: ReportFormat,
  color: ChalkInstance,
  options: FormatOptions = {},
): string {
  return [...reportChunks(report, issuesOf(report.issues), format, color, options)].join('');
}

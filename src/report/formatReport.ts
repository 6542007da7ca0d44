import type { ChalkInstance } from 'chalk';
import { githubChunks } from './formatGithub.js';
import { jsonChunks } from './formatJson.js';
import { junitChunks } from './formatJunit.js';
import { prettyChunks, type PrettyOptions } from './formatPretty.js';
import { sarifChunks } from './formatSarif.js';
import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';

export const reportFormats = ['pretty', 'json', 'junit', 'github', 'sarif'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** A report in a format, piece by piece, with every one of `issues` (which may be read back from disk): write the pieces as they come. */
export function reportChunks(report: Report, issues: ReportIssues, format: ReportFormat, color: ChalkInstance, options: PrettyOptions = {}): Iterable<string> {
  switch (format) {
    case 'json':
      return jsonChunks(report, issues);
    case 'junit':
      return junitChunks(report, issues);
    case 'github':
      return githubChunks(report, issues);
    case 'sarif':
      return sarifChunks(report, issues);
    default:
      return prettyChunks(report, issues, color, options);
  }
}

/** A report held whole in memory, in a format, as one text. */
export function formatReport(report: Report, format: ReportFormat, color: ChalkInstance, options: PrettyOptions = {}): string {
  return [...reportChunks(report, issuesOf(report.issues), format, color, options)].join('');
}

import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';
import { freshMarker, streamedJson } from './streamedJson.js';

/** `--format json` as it is written, piece by piece: the report with its issues streamed, then `groups`. */
export function* jsonChunks(report: Report, issues: ReportIssues): Generator<string> {
  const marker = freshMarker();
  yield* streamedJson({ ...report, issues: marker, groups: issues.groups }, marker, issues);
  yield '\n';
}

/**
 * `--format json`: the report as one JSON document; `groups` adds the issues counted by code and field (every
 * issue stays in `issues`).
 */
export function formatJson(report: Report): string {
  return [...jsonChunks(report, issuesOf(report.issues))].join('');
}

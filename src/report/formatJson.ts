import { groupIssues } from './groupIssues.js';
import type { Report } from './report.js';

/** `--format json`: the report as one JSON document; `groups` adds the issues counted by code and field (every issue stays in `issues`). */
export function formatJson(report: Report): string {
  return `${JSON.stringify({ ...report, groups: groupIssues(report.issues) }, null, 2)}\n`;
}

import type { Report } from './report.js';

/** `--format json`: the report as one JSON document. */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

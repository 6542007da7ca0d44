import type { ChalkInstance } from 'chalk';
import { formatGithub } from './formatGithub.js';
import { formatJson } from './formatJson.js';
import { formatJunit } from './formatJunit.js';
import { formatPretty, type PrettyOptions } from './formatPretty.js';
import { formatSarif } from './formatSarif.js';
import type { Report } from './report.js';

export const reportFormats = ['pretty', 'json', 'junit', 'github', 'sarif'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export function formatReport(report: Report, format: ReportFormat, color: ChalkInstance, options: PrettyOptions = {}): string {
  switch (format) {
    case 'json':
      return formatJson(report);
    case 'junit':
      return formatJunit(report);
    case 'github':
      return formatGithub(report);
    case 'sarif':
      return formatSarif(report);
    default:
      return formatPretty(report, color, options);
  }
}

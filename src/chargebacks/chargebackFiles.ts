import { MIB, readConfigFile } from '../decode/configFile.js';
import { UsageError } from '../core/errors.js';
import { RejectsWriter } from '../send/outputFiles.js';
import type { Plan } from './planChargebacks.js';
import type { ReportInput } from './readChargebacks.js';
import { mergedTable, shippedTable, type ReasonTable } from './reasonCategories.js';
import { parseReasonCategories } from './reasonCategoriesFile.js';

/** The shipped reason-code table, with `--reason-categories FILE` on top; its mistakes are exit 2 with their lines. */
export async function reasonTable(file: string | undefined): Promise<ReasonTable> {
  if (file === undefined) return shippedTable;
  const text = readConfigFile(file, {
    option: '--reason-categories',
    maxBytes: MIB,
    limit: '1 MiB',
    holds: 'a reason-code table has a line per network and code',
    tooLargeHint: 'keep network,reason_code,category[,label] lines only',
    pathHint: 'check the path',
    regularHint: 'write the table to a file and name it',
  }).toString('utf8');
  const { rows, problems } = parseReasonCategories(text);
  if (problems.length > 0)
    throw new UsageError(
      `--reason-categories ${file} has mistakes:\n${problems
        .slice(0, 20)
        .map((p) => `  ${file}:${p.line}: ${p.message}`)
        .join('\n')}`,
      'columns network,reason_code,category[,label]; category one of fraud, consumer-dispute, ' +
        'processing, authorisation',
    );
  return mergedTable(shippedTable, rows);
}

/**
 * `--rejects`: the rows a person can fix (unmatched, ambiguous, invalid) in their input's format with
 * collect_reason.
 */
export async function writeRejects(
  target: string,
  plan: Plan,
  reports: readonly ReportInput[],
  redact: (t: string) => string,
) {
  const writer = new RejectsWriter(
    target,
    reports.map((r) => r.spec),
    redact,
  );
  for (const [i, verdict] of plan.match.verdicts.entries()) {
    if (!['unmatched', 'ambiguous', 'invalid'].includes(verdict.outcome)) continue;
    const reason = verdict.issues
      .filter((issue) => issue.severity === 'error')
      // A damaged id is fixed at the source, not in the row: the fix goes with it.
      .map(
        (issue) =>
          `${issue.code}: ${issue.message}${issue.code === 'mangled-id' ? ` (fix: ${issue.hint})` : ''}`,
      )
      .join('; ');
    writer.write(verdict.file, plan.rows[i]!.raw, reason);
  }
  await writer.close();
}

import { terminalLines } from '../core/terminalText.js';
import type { ExitCode } from '../core/exitCodes.js';
import { htmlChunks } from '../report/formatHtml.js';
import { reportChunks } from '../report/formatReport.js';
import type { RunResult } from '../run/runRequest.js';
import type { Redact } from '../send/outputFiles.js';
import { describeHalt } from '../send/setupFailure.js';
import { colorFor } from '../terminal/color.js';
import type { CliIo } from '../terminal/io.js';
import { writeChunks } from '../terminal/writeChunks.js';
import { ciOutputs } from './ciOutputs.js';
import { writeHtmlReport } from './htmlReportFile.js';
import type { RunExtras, RunFlags } from './runFlags.js';

/**
 * Prints a run's outcome: the HTML report where --report-html says, the report on standard output
 * in --format (or the command's own), and on standard error what stopped sending; returns the exit code.
 */
export async function printRun(
  result: RunResult,
  flags: RunFlags,
  io: CliIo,
  extra: RunExtras,
  printed: { redact: Redact; title: string },
): Promise<ExitCode> {
  const { redact } = printed;
  const html = { ...(result.insights ? { insights: result.insights } : {}), title: printed.title };
  if (flags.reportHtml !== undefined)
    writeHtmlReport(flags.reportHtml, htmlChunks(result.report, result.issues, html), redact);
  if (extra.show) {
    extra.show(result, io);
    return result.exitCode;
  }
  const color = colorFor(io.stdout, io.env);
  const options = {
    allIssues: flags.allIssues === true,
    exitCode: result.exitCode,
    ...html,
    ...ciOutputs(io, redact),
  };
  await writeChunks(
    io.stdout,
    extra.report
      ? extra.report(result, color, options)
      : reportChunks(result.report, result.issues, flags.format, color, options),
  );
  if (result.keyRefused) {
    io.stderr.write(
      'collect: the service refused the API key; nothing more was sent\n  fix: check ' +
        'COLLECT_API_KEY or --api-key-file, and --base-url\n',
    );
  }
  if (result.halted) io.stderr.write(terminalLines(describeHalt(result.halted)));
  if (result.stateFailure)
    io.stderr.write(
      terminalLines(
        `collect: ${result.stateFailure.message}\n` +
          `${result.stateFailure.hint ? `  fix: ${result.stateFailure.hint}\n` : ''}`,
      ),
    );
  return result.exitCode;
}

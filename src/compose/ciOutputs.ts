import { appendFileSync } from 'node:fs';
import type { GithubOptions } from '../report/formatGithub.js';
import type { CliIo } from '../terminal/io.js';

/**
 * What the CI formats take from the environment, in one place for every command that writes a
 * report: the file GitHub Actions gives for the job summary (`GITHUB_STEP_SUMMARY`), appended to,
 * every piece redacted. A summary that cannot be written is said on stderr; the report stands.
 */
export function ciOutputs(io: CliIo, redact: (text: string) => string = (text) => text): GithubOptions {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (file === undefined || file === '') return {};
  return {
    stepSummary: (markdown) => {
      try {
        appendFileSync(file, redact(markdown));
      } catch (cause) {
        io.stderr.write(
          `collect: cannot append the job summary to GITHUB_STEP_SUMMARY (` +
            `${(cause as NodeJS.ErrnoException).code ?? String(cause)}); the report above stands\n`,
        );
      }
    },
  };
}

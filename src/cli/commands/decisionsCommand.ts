import { Command, Option } from 'commander';
import { exitCodes, exitCodesHelp, type ExitRow } from '../../core/exitCodes.js';
import { terminalText } from '../../core/terminalText.js';
import { decisionFormats } from '../../decode/inputFormats.js';
import { decisionsWithFlags, type DecisionsFlags } from '../../compose/decisionsWithFlags.js';
import { verdictLine } from '../../report/verdictLine.js';
import { colorFor } from '../../terminal/color.js';
import type { CliIo } from '../../terminal/io.js';

/** What `collect decisions` ends with: it never sends. */
const exits: readonly ExitRow[] = [
  [exitCodes.ok, 'every row loaded'],
  [exitCodes.invalid, 'some rows not loaded (each listed with its line); the others were'],
  [exitCodes.usage, 'usage or input error: a bad flag, no --base-url, an unreadable file or state'],
];

/** Bad rows listed one by one; the rest are counted. */
const SHOWN = 20;

/**
 * `collect decisions FILE...`: loads evaluation decisions the service made on orders created
 * outside collect into that service's state, so fraud-after-service-decline (§1.5) holds for them.
 */
export function decisionsCommand(io: CliIo, setExit: (code: number) => void): Command {
  return new Command('decisions')
    .summary("load the service's decisions on orders created outside collect into the state")
    .description(
      "Loads the service's evaluation decisions (approve, reject, manual, unavailable) on orders\n" +
        'created outside collect, e.g. by the platform itself, into the state of that service, so a\n' +
        'fraud mark for an order the service declined is refused (rule fraud-after-service-decline, ' +
        '§1.5).\nCSV with the columns order_id and decision, or NDJSON objects with those fields (.gz ' +
        'allowed);\na later load of the same order replaces the decision.',
    )
    .argument('<files...>', 'CSV or NDJSON files; - for standard input (with --input-format)')
    .addOption(
      new Option('--input-format <format>', 'input format, needed for standard input').choices(
        decisionFormats,
      ),
    )
    .option('--base-url <url>', 'the service whose state gets the decisions (default: COLLECT_BASE_URL)')
    .option(
      '--state <dir|url>',
      'the state: a folder (default .collect) or a postgres:// URL (default: COLLECT_STATE)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ collect decisions decisions.csv --base-url https://collect.example.com
  $ zcat export.ndjson.gz | collect decisions - --input-format ndjson --base-url https://collect.example.com

${exitCodesHelp(exits)}`,
    )
    .action(async (files: string[], flags: DecisionsFlags) => {
      const { counts, problems, baseUrl, location } = await decisionsWithFlags(files, flags, io);
      const loaded = [...counts.values()].reduce((a, b) => a + b, 0);
      const byDecision = [...counts].map(([decision, count]) => `${count} ${decision}`).join(', ');
      const color = colorFor(io.stdout, io.env);
      const said =
        `loaded ${loaded} decision${loaded === 1 ? '' : 's'}${loaded > 0 ? ` (${byDecision})` : ''} ` +
        `into the state of ${baseUrl} in ${location}`;
      io.stdout.write(`${problems.length > 0 ? said : verdictLine(exitCodes.ok, said, color)}\n`);
      if (problems.length > 0) {
        const notLoaded = `${problems.length} row${problems.length === 1 ? '' : 's'} not loaded:`;
        io.stdout.write(`${verdictLine(exitCodes.invalid, notLoaded, color)}\n`);
        // A row's problem quotes the file's own text: escaped, so a decision cell cannot drive the terminal.
        for (const problem of problems.slice(0, SHOWN)) io.stdout.write(`  ${terminalText(problem)}\n`);
        if (problems.length > SHOWN) io.stdout.write(`  ... and ${problems.length - SHOWN} more\n`);
        io.stdout.write(
          '  fix: each row needs order_id and decision (approve, reject, manual or unavailable); ' +
            'fix the rows and load the file again\n',
        );
      }
      setExit(problems.length > 0 ? exitCodes.invalid : exitCodes.ok);
    });
}

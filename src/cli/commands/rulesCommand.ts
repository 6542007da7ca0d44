import { Command, Option } from 'commander';
import { exitCodes, exitCodesHelp } from '../../core/exitCodes.js';
import { flowRules } from '../../flow/rules/index.js';
import { ruleAppliesTo } from '../../flow/rules/rule.js';
import { registry } from '../../resources/registry.js';
import { colorFor } from '../../terminal/color.js';
import type { CliIo } from '../../terminal/io.js';

/** `collect rules`: every flow rule with its code, severity, section, what it catches and how to fix it. */
export function rulesCommand(io: CliIo): Command {
  return new Command('rules')
    .addOption(new Option('--format <format>', 'output format').choices(['pretty', 'json']).default('pretty'))
    .addHelpText(
      'after',
      `\nExample:\n  $ collect rules --format json | jq -r '.[].code'\n\n${exitCodesHelp([
        [exitCodes.ok, 'the rules printed'],
        [exitCodes.usage, 'usage error: a bad flag'],
      ])}`,
    )
    .action((flags: { format: 'pretty' | 'json' }) => {
      const rules = flowRules.map((rule) => ({
        code: rule.code,
        severity: rule.severity,
        spec: rule.spec,
        catches: rule.catches,
        fix: rule.fix,
        appliesTo: registry.all
          .filter((resource) => ruleAppliesTo(rule, resource))
          .map((resource) => resource.name),
        scope: rule.check ? 'across records' : 'one record',
      }));
      if (flags.format === 'json') {
        io.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
        return;
      }
      const color = colorFor(io.stdout, io.env);
      const lines = rules.map((rule) =>
        [
          `${color.bold(rule.code)}  ` +
            `${rule.severity === 'error' ? color.red('error') : color.yellow('warning')}  ` +
            `${color.dim(`${rule.spec} · ${rule.appliesTo.join(', ')}`)}`,
          `  catches: ${rule.catches}`,
          `  fix:     ${rule.fix}`,
        ].join('\n'),
      );
      io.stdout.write(`${lines.join('\n\n')}\n`);
    });
}

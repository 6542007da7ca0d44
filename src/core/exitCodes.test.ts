import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/memoryIo.js';
import { registry } from '../resources/registry.js';
import { exitCodeMeanings, exitCodesHelp, runExitCode } from './exitCodes.js';

describe('exit codes: one table', () => {
  it('is the table of the README, word for word', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Exit codes'),
      readme.indexOf('\n## ', readme.indexOf('## Exit codes') + 1),
    );
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => ({
      code: Number(m[1]),
      meaning: m[2],
    }));
    expect(rows).toEqual(exitCodeMeanings.map(({ code, meaning }) => ({ code, meaning })));
  });

  it('ends every help text that runs records, and the main help', async () => {
    for (const command of [[], ...registry.names.map((name) => [name]), ['backfill']]) {
      const { stdout } = await runCli([...command, '--help']);
      expect(stdout, `collect ${command.join(' ')} --help`).toContain(exitCodesHelp());
    }
  });

  it('decides a run: interrupted, then delivery failure, then invalid records', () => {
    expect(runExitCode({ interrupted: true, deliveryFailed: true, faulty: true })).toBe(130);
    expect(runExitCode({ interrupted: false, deliveryFailed: true, faulty: true })).toBe(3);
    expect(runExitCode({ interrupted: false, deliveryFailed: false, faulty: true })).toBe(1);
    expect(runExitCode({ interrupted: false, deliveryFailed: false, faulty: false })).toBe(0);
  });
});

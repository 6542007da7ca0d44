import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/memoryIo.js';
import { registry } from '../resources/registry.js';
import type { Command } from 'commander';
import { fullProgram } from '../cli/run.js';
import { quietIo } from '../../test/helpers/memoryIo.js';
import { exitCodeMeanings, exitCodes, runExitCode } from './exitCodes.js';

/** Every command and subcommand of the program, as the words that run it (the root: none). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

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

  it("ends every command's help, subcommands included, with that command's own table", async () => {
    const codes = new Set<number>(Object.values(exitCodes));
    const tables = new Map<string, Map<number, string>>();
    for (const path of commandPaths(await fullProgram(quietIo(), () => {}))) {
      const { stdout } = await runCli([...path, '--help']);
      const name = ['collect', ...path].join(' ');
      const section = stdout.slice(stdout.lastIndexOf('\nExit codes:\n'));
      expect(section, name).toMatch(/^\nExit codes:\n( {2}(\d+|N) {1,3}.+\n?)+$/);
      const rows = new Map([...section.matchAll(/^ {2}(\d+) +(.+)$/gm)].map((m) => [Number(m[1]), m[2]!]));
      for (const code of rows.keys()) expect(codes.has(code), `${name}: ${code}`).toBe(true);
      expect(rows.get(exitCodes.internal), name).toBeDefined();
      tables.set(path.join(' '), rows);
    }
    // The shared table is the root's and the record runs'.
    for (const name of ['', 'backfill', ...registry.names])
      expect(tables.get(name), name).toEqual(
        new Map(exitCodeMeanings.map(({ code, meaning }) => [code as number, meaning])),
      );
    // A signal drains the relay (exit 0); only a second one, which stops waiting, is 130 (test/relayFaults.test.ts).
    expect(tables.get('relay')!.get(exitCodes.ok)).toMatch(/SIGTERM/);
    expect(tables.get('relay')!.get(exitCodes.interrupted)).toMatch(/^a second SIGTERM or Ctrl-C/);
    // Commands that never send never claim a delivery failure.
    for (const name of [
      'decisions',
      'relay init',
      'relay retry',
      'rules',
      'schema',
      'template',
      'map',
      'map init',
      'completion',
    ])
      expect(tables.get(name)!.has(exitCodes.deliveryFailed), name).toBe(false);
  });

  it('lists --from in the help of relay init and relay retry', async () => {
    for (const sub of ['init', 'retry']) {
      const { stdout } = await runCli(['relay', sub, '--help']);
      expect(stdout, sub).toMatch(/^ {2}--from <url> +the outbox database/m);
    }
  });

  it('decides a run: interrupted, then delivery failure, then invalid records', () => {
    expect(runExitCode({ interrupted: true, deliveryFailed: true, faulty: true })).toBe(130);
    expect(runExitCode({ interrupted: false, deliveryFailed: true, faulty: true })).toBe(3);
    expect(runExitCode({ interrupted: false, deliveryFailed: false, faulty: true })).toBe(1);
    expect(runExitCode({ interrupted: false, deliveryFailed: false, faulty: false })).toBe(0);
  });
});

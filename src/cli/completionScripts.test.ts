import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/memoryIo.js';

const commands = [
  'order',
  'status',
  'fraud',
  'payment',
  'delivery',
  'backfill',
  'rules',
  'sandbox',
  'schema',
  'template',
  'completion',
];

/** What bash offers after `words`, with the script loaded (the cursor on the last word). */
function bashOffers(script: string, words: string[]): string[] {
  const program =
    `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=` +
    `${words.length - 1}; _collect; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', program], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}

describe('collect completion', () => {
  it('prints a bash script that bash accepts and that completes every command, option and choice', async () => {
    const { code, stdout } = await runCli(['completion', 'bash']);
    expect(code).toBe(0);
    const syntax = spawnSync('bash', ['-n'], { input: stdout, encoding: 'utf8' });
    expect(syntax.status, syntax.stderr).toBe(0);
    expect(bashOffers(stdout, ['collect', ''])).toEqual(
      expect.arrayContaining([...commands, 'help', '--help', '--version']),
    );
    const help = (await runCli(['--help'])).stdout;
    for (const name of commands) expect(help).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(bashOffers(stdout, ['collect', 'order', '--in'])).toEqual(['--input-format']);
    expect(bashOffers(stdout, ['collect', 'order', '--input-format', ''])).toEqual([
      'json',
      'ndjson',
      'csv',
      'parquet',
    ]);
    expect(bashOffers(stdout, ['collect', 'fraud', '--type', 'ch'])).toEqual(['chargeback']);
    expect(bashOffers(stdout, ['collect', 'backfill', '--format', 'j'])).toEqual(['json', 'junit']);
    expect(bashOffers(stdout, ['collect', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('prints zsh and fish scripts naming every command and option of the program', async () => {
    for (const shell of ['zsh', 'fish']) {
      const { code, stdout } = await runCli(['completion', shell]);
      expect(code).toBe(0);
      for (const name of commands) expect(stdout).toContain(shell === 'zsh' ? `'${name}:` : `-a ${name} -d`);
      expect(stdout).toContain(
        shell === 'zsh'
          ? "'--input-format[input format, needed for standard input]:value:(json ndjson csv parquet)'"
          : "-l input-format -x -a 'json ndjson csv parquet'",
      );
    }
    expect((await runCli(['completion', 'zsh'])).stdout).toMatch(/^#compdef collect\n/);
  });

  it('refuses a shell it does not know, naming the ones it does', async () => {
    const { code, stderr } = await runCli(['completion', 'powershell']);
    expect(code).toBe(2);
    expect(stderr).toContain('bash, zsh, fish');
  });
});

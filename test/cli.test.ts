import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';

const endpoints = ['order', 'status', 'fraud', 'payment', 'delivery'];
const formats = ['json', 'ndjson', 'csv'];

describe('collect ENDPOINT --dry-run over the fixtures', () => {
  for (const endpoint of endpoints) {
    for (const format of formats) {
      it(`${endpoint}: valid.${format} passes and invalid.${format} fails with located errors`, async () => {
        const valid = await runCli([
          endpoint,
          `fixtures/${endpoint}/valid.${format}`,
          '--dry-run',
          '--format',
          'json',
        ]);
        expect(valid.code, valid.stdout).toBe(0);
        expect(JSON.parse(valid.stdout).summary.invalid).toBe(0);
        const invalid = await runCli([
          endpoint,
          `fixtures/${endpoint}/invalid.${format}`,
          '--dry-run',
          '--format',
          'json',
        ]);
        expect(invalid.code).toBe(1);
        const report = JSON.parse(invalid.stdout);
        expect(report.summary.invalid).toBeGreaterThan(0);
        for (const issue of report.issues) {
          expect(issue).toMatchObject({ endpoint, file: `fixtures/${endpoint}/invalid.${format}` });
          expect(typeof issue.line).toBe('number');
          expect(typeof issue.code).toBe('string');
        }
      });
    }
  }
});

describe('the JSON report', () => {
  it('has the shape of docs/cli.md, with file, line, index and path of each issue', async () => {
    const { code, stdout } = await runCli([
      'delivery',
      'fixtures/delivery/invalid.csv',
      '--dry-run',
      '--format',
      'json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.version).toBe(1);
    expect(Object.keys(report.summary)).toEqual([
      'records',
      'valid',
      'invalid',
      'errors',
      'warnings',
      'sent',
      'accepted',
      'rejected',
      'skipped',
      'failed',
    ]);
    expect(report.issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'out-of-range',
        endpoint: 'delivery',
        file: 'fixtures/delivery/invalid.csv',
        line: 2,
        index: 0,
        path: 'deliverer.address.latitude',
      }),
    );
    expect(report.issues).toContainEqual(
      expect.objectContaining({ code: 'missing-pair', path: 'deliverer.phone_number' }),
    );
  });
  it('counts warnings as errors with --strict', async () => {
    const lenient = await runCli(['fraud', 'fixtures/fraud/invalid.ndjson', '--dry-run', '--format', 'json']);
    expect(JSON.parse(lenient.stdout).issues.map((i: { code: string }) => i.code)).toContain(
      'fraud-comment-recommended',
    );
    const input = '{"order_id":"A","fraud_signal_type":"other"}\n';
    expect(
      (await runCli(['fraud', '-', '--input-format', 'ndjson', '--dry-run'], { stdin: input })).code,
    ).toBe(0);
    expect(
      (await runCli(['fraud', '-', '--input-format', 'ndjson', '--dry-run', '--strict'], { stdin: input }))
        .code,
    ).toBe(1);
  });
});

describe('inputs', () => {
  it('reads standard input with --input-format, and stdin when no file is named', async () => {
    const csv = 'id,status\nA,approved\nB,nope\n';
    const named = await runCli(['status', '-', '--input-format', 'csv', '--dry-run', '--format', 'json'], {
      stdin: csv,
    });
    expect(JSON.parse(named.stdout).summary).toMatchObject({ records: 2, invalid: 1 });
    expect(JSON.parse(named.stdout).issues[0]).toMatchObject({
      file: '-',
      line: 3,
      index: 1,
      path: 'status',
    });
    const implicit = await runCli(['status', '--input-format', 'csv', '--dry-run', '--format', 'json'], {
      stdin: csv,
    });
    expect(JSON.parse(implicit.stdout).summary.records).toBe(2);
  });
  it('refuses to wait on a terminal for standard input', async () => {
    const { code, stderr } = await runCli(['status', '--dry-run', '--input-format', 'csv'], {
      stdinIsTTY: true,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('no input');
  });
  it('renames columns with --map', async () => {
    const { code, stdout } = await runCli([
      'status',
      'test/data/status-export.csv',
      '--map',
      'test/data/status-map.json',
      '--dry-run',
      '--format',
      'json',
    ]);
    expect(JSON.parse(stdout).summary).toMatchObject({ records: 2, valid: 2 });
    expect(code).toBe(0);
  });
  it('reads gzip-compressed files of every format', async () => {
    for (const name of ['status.csv.gz', 'status.ndjson.gz', 'status.json.gz']) {
      const { code, stdout } = await runCli(['status', `test/data/${name}`, '--dry-run', '--format', 'json']);
      expect(code, name).toBe(1);
      expect(JSON.parse(stdout).summary, name).toMatchObject({ records: 2, valid: 1, invalid: 1 });
    }
  });
});

describe('usage and input errors exit 2 with a message and a fix, never a stack trace', () => {
  it.each([
    [['status', 'missing.csv', '--dry-run'], 'missing.csv: no such file'],
    [['status', 'notes.txt', '--dry-run'], 'cannot tell the format of notes.txt'],
    [['status', '-', '--dry-run'], 'standard input has no file name'],
    [['status', 'fixtures/status/valid.csv'], 'no service to send to'],
    [
      ['status', 'fixtures/status/valid.csv', '--dry-run', '--map', 'missing.json'],
      '--map missing.json: cannot be read',
    ],
    [['status', 'fixtures/status/valid.csv', '--dry-run', '--format', 'xml'], "argument 'xml' is invalid"],
    [['schema', 'orders'], 'unknown endpoint "orders"'],
    [['staus'], "unknown command 'staus'"],
    [['status', 'test/data/corrupt.csv.gz', '--dry-run'], 'not a valid gzip stream'],
  ])('collect %j', async (argv, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('malformed files give located errors and exit 1', () => {
  it('a truncated JSON array', async () => {
    const { code, stdout } = await runCli(
      ['status', '-', '--input-format', 'json', '--dry-run', '--format', 'json'],
      { stdin: '[\n{"id":"A","status":"approved"},\n{"id":"B",' },
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout).issues).toEqual([
      expect.objectContaining({ code: 'invalid-json', line: 3, index: 1 }),
    ]);
  });
  it('a broken NDJSON line', async () => {
    const { code, stdout } = await runCli(
      ['status', '-', '--input-format', 'ndjson', '--dry-run', '--format', 'json'],
      { stdin: '{"id":"A","status":"approved"}\n{"id":"B"\n' },
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout).issues).toEqual([
      expect.objectContaining({ code: 'invalid-json', line: 2, index: 1 }),
    ]);
  });
  it('an unbalanced CSV quote stops the run (exit 2), saying where', async () => {
    const { code, stderr } = await runCli(
      ['status', '-', '--input-format', 'csv', '--dry-run', '--format', 'json'],
      { stdin: 'id,status\nA,approved\nB,"declined\nC,pending\n' },
    );
    expect(code).toBe(2);
    expect(stderr).toContain(':3: ');
  });
});

describe('schema and template', () => {
  it('prints the JSON Schema of every endpoint', async () => {
    for (const endpoint of endpoints) {
      const { code, stdout } = await runCli(['schema', endpoint]);
      expect(code).toBe(0);
      const schema = JSON.parse(stdout);
      expect(schema.type).toBe('object');
      expect(schema.required.length).toBeGreaterThan(0);
    }
    const delivery = JSON.parse((await runCli(['schema', 'delivery'])).stdout);
    expect(delivery.properties.deliverer.required).toEqual(['id', 'name']);
    expect(delivery.properties.delivery_datetime.pattern).toContain('T');
  });
  it('prints a template whose example row is itself valid', async () => {
    for (const endpoint of endpoints) {
      const template = await runCli(['template', endpoint]);
      expect(template.code).toBe(0);
      expect(template.stdout.trim().split('\n')).toHaveLength(2);
      const check = await runCli([endpoint, '-', '--input-format', 'csv', '--dry-run', '--strict'], {
        stdin: template.stdout,
      });
      expect(check.code, check.stdout).toBe(0);
    }
  });
});

describe('help', () => {
  it('shows examples and exits 0', async () => {
    const root = await runCli(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('Examples:');
    const order = await runCli(['order', '--help']);
    expect(order.stdout).toContain('--dry-run');
    expect(order.stdout).toContain('collect order order.csv --dry-run');
  });
  it("shows the fraud mark by hand first: its usage line, options and example above the files' ones", async () => {
    const { stdout } = await runCli(['fraud', '--help']);
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      'Usage: collect fraud --order-id <id> --type <type> [--comment <text>] [--yes]',
      '       collect fraud [options] [files...]',
    ]);
    // Where each is listed, below the usage lines.
    const at = (text: string) => stdout.indexOf(text, stdout.indexOf('Arguments:'));
    expect(at('One record by hand')).toBeLessThan(at('--order-id <id> '));
    for (const byHand of ['--order-id <id> ', '--acquirer-id', '--type <type>', '--comment', '--yes '])
      expect(at(byHand)).toBeLessThan(at('\nOptions:'));
    expect(at('\nOptions:')).toBeLessThan(at('--input-format'));
    // Its examples too: the mark by hand above the files' runs.
    expect(at('$ collect fraud --order-id')).toBeGreaterThan(at('Examples:'));
    expect(at('$ collect fraud --order-id')).toBeLessThan(at('$ collect fraud fraud.csv'));
    // A command without a form by hand keeps commander's usage and one list of options.
    const order = await runCli(['order', '--help']);
    expect(order.stdout.split('\n')[0]).toBe('Usage: collect order [options] [files...]');
    expect(order.stdout).not.toContain('by hand');
  });
});

describe('COLLECT_MEMORY_RECORDS', () => {
  it('bounds what a run holds in memory, with the same report; a bad value is a usage error', async () => {
    const args = ['status', 'fixtures/status/invalid.ndjson', '--dry-run', '--no-state', '--format', 'json'];
    const plain = await runCli(args);
    const spilled = await runCli(args, { env: { COLLECT_MEMORY_RECORDS: '2' } });
    expect(spilled.code).toBe(plain.code);
    expect(JSON.parse(spilled.stdout).issues).toEqual(JSON.parse(plain.stdout).issues);
    const bad = await runCli(args, { env: { COLLECT_MEMORY_RECORDS: 'lots' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('COLLECT_MEMORY_RECORDS');
  });
});

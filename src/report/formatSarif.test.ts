import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatSarif } from './formatSarif.js';
import { ReportBuilder } from './report.js';

type Json = Record<string, unknown>;

/** The fields SARIF 2.1.0's schema requires (and GitHub code scanning relies on), checked on every object. */
function sarifProblems(log: Json): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(what);
  need(log.version === '2.1.0', 'version must be "2.1.0"');
  need(typeof log.$schema === 'string', '$schema');
  need(Array.isArray(log.runs) && log.runs.length === 1, 'runs: one run');
  for (const run of (log.runs ?? []) as Json[]) {
    const driver = (run.tool as Json | undefined)?.driver as Json | undefined;
    need(typeof driver?.name === 'string', 'run.tool.driver.name');
    const rules = (driver?.rules ?? []) as Json[];
    const ids = rules.map((rule) => rule.id);
    need(new Set(ids).size === ids.length, 'rule ids unique');
    for (const rule of rules) {
      need(typeof rule.id === 'string', 'rule.id');
      for (const key of ['shortDescription', 'fullDescription', 'help'])
        need(typeof (rule[key] as Json | undefined)?.text === 'string', `rule.${key}.text`);
      need(
        ['none', 'note', 'warning', 'error'].includes((rule.defaultConfiguration as Json).level as string),
        'rule level',
      );
    }
    for (const result of (run.results ?? []) as Json[]) {
      need(typeof (result.message as Json | undefined)?.text === 'string', 'result.message.text');
      need(['none', 'note', 'warning', 'error'].includes(result.level as string), 'result.level');
      need(ids[result.ruleIndex as number] === result.ruleId, 'result.ruleIndex points at its rule');
      const locations = result.locations as Json[];
      need(Array.isArray(locations) && locations.length > 0, 'result.locations');
      for (const location of locations ?? []) {
        const physical = location.physicalLocation as Json;
        need(typeof (physical.artifactLocation as Json).uri === 'string', 'artifactLocation.uri');
        const line = (physical.region as Json).startLine;
        need(Number.isInteger(line) && (line as number) >= 1, 'region.startLine >= 1');
      }
    }
    for (const invocation of (run.invocations ?? []) as Json[]) {
      need(typeof invocation.executionSuccessful === 'boolean', 'invocation.executionSuccessful');
      for (const note of (invocation.toolExecutionNotifications ?? []) as Json[])
        need(typeof (note.message as Json).text === 'string', 'notification.message.text');
    }
  }
  return problems;
}

describe('formatSarif', () => {
  const builder = new ReportBuilder({ strict: false });
  builder.add('order', { file: 'data/orders 2024.csv', index: 4, line: 6 }, [
    error('invalid-number', 'total_paid_value', '"10,50" is not a number', { hint: 'use a dot: 10.50' }),
    warning('unknown-field', 'x', 'x is not a field'),
  ]);
  builder.add('order', { file: 'data/orders 2024.csv', index: 7, line: 9 }, [
    error('invalid-number', 'total_paid_value', '"x" is not a number'),
  ]);
  builder.add('fraud', { file: '/abs/fraud.ndjson', index: 0, line: 1 }, [
    error('unknown-order', '', 'no order ORD-9 was created'),
  ]);
  builder.add('status', { file: 'status.csv', index: null, line: null }, [
    error('invalid-csv', '', 'the CSV cannot be read'),
  ]);
  builder.note('unknown-order', 'skipped: nothing known');
  const log = JSON.parse(formatSarif(builder.build())) as Json;
  const run = (log.runs as Json[])[0]!;
  const rules = (run.tool as { driver: { rules: Json[] } }).driver.rules;
  const results = run.results as Json[];

  it('is a SARIF 2.1.0 log with every field the schema requires', () => {
    expect(sarifProblems(log)).toEqual([]);
  });

  it("has one rule per issue code, with help text (a flow rule's own catches and fix)", () => {
    expect(rules.map((rule) => rule.id)).toEqual([
      'invalid-number',
      'unknown-field',
      'unknown-order',
      'invalid-csv',
    ]);
    expect(rules[0]).toMatchObject({
      name: 'InvalidNumber',
      shortDescription: { text: 'a CSV cell that should hold a number does not' },
      help: { text: 'Fix: use a dot: 10.50' },
      defaultConfiguration: { level: 'error' },
    });
    expect((rules[2]!.help as Json).text).toMatch(/^Fix: .+/);
    expect((rules[2]!.properties as Json).tags).toContain('flow-rule');
  });

  it('has one result per issue, located at its file and line', () => {
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({
      ruleId: 'invalid-number',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'total_paid_value: "10,50" is not a number (record 4, order). Fix: use a dot: 10.50' },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: 'data/orders%202024.csv' }, region: { startLine: 6 } },
        },
      ],
    });
    // Errors first, each severity in report order.
    expect(results[4]).toMatchObject({ ruleId: 'unknown-field', level: 'warning' });
    expect(results[2]).toMatchObject({
      locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///abs/fraud.ndjson' } } }],
    });
    expect(results[3]).toMatchObject({ locations: [{ physicalLocation: { region: { startLine: 1 } } }] });
    expect((run.invocations as Json[])[0]).toMatchObject({
      toolExecutionNotifications: [{ message: { text: 'unknown-order: skipped: nothing known' } }],
    });
  });

  it('is a valid log without any issue', () => {
    const empty = JSON.parse(formatSarif(new ReportBuilder({ strict: false }).build())) as Json;
    expect(sarifProblems(empty)).toEqual([]);
    expect((empty.runs as Json[])[0]!.results).toEqual([]);
  });
});

describe('formatSarif past what code scanning takes', () => {
  /** A run of many invalid rows: `rows` records each with an error and a warning, and one rare error at the end. */
  function manyIssues(
    rows: number,
    message: (row: number) => string = (row) => `"x${row}" is not a number`,
    warningText: (row: number) => string = () => 'x is not a field',
  ) {
    const builder = new ReportBuilder({ strict: false });
    for (let row = 0; row < rows; row++)
      builder.add('order', { file: 'orders.csv', index: row, line: row + 2 }, [
        error('invalid-number', row % 2 ? 'total_paid_value' : 'amount', message(row)),
        warning('unknown-field', 'x', warningText(row)),
      ]);
    builder.add('order', { file: 'orders.csv', index: rows, line: rows + 2 }, [
      error('invalid-enum', 'currency', '"EURO" is not a currency'),
    ]);
    return builder.build();
  }

  it(
    'holds at most 25,000 results, errors first, every rule and field with examples, and says how ' +
      'many were left out',
    () => {
      const report = manyIssues(13_000);
      const log = JSON.parse(formatSarif(report)) as Json;
      expect(sarifProblems(log)).toEqual([]);
      const run = (log.runs as Json[])[0]!;
      const results = run.results as { ruleId: string; level: string; properties: { field?: string } }[];
      expect(results).toHaveLength(25_000);
      const firstWarning = results.findIndex((result) => result.level === 'warning');
      expect(results.slice(firstWarning).every((result) => result.level === 'warning')).toBe(true);
      const groups = new Set(results.map((result) => `${result.ruleId} ${result.properties.field}`));
      expect(groups).toEqual(
        new Set([
          'invalid-number amount',
          'invalid-number total_paid_value',
          'invalid-enum currency',
          'unknown-field x',
        ]),
      );
      expect(run.properties).toMatchObject({ resultsShown: 25_000, resultsLeftOut: 26_001 - 25_000 });
      const notes = (run.invocations as { toolExecutionNotifications: { message: { text: string } }[] }[])[0]!
        .toolExecutionNotifications;
      expect(notes[0]!.message.text).toMatch(/^1001 results left out: .*25,000 results per run/);
    },
  );

  it('stays within 10 MB gzipped, however long the messages', () => {
    // Random text does not compress: 16,000 messages of 900 characters are about 11 MB gzipped.
    let seed = 7;
    const random = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const bytes = Buffer.alloc(1 << 22);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 48 + (random() % 64);
    const pool = bytes.toString('latin1');
    const noise = (at: number) =>
      pool.slice((at * 900) % (pool.length - 900), ((at * 900) % (pool.length - 900)) + 900);
    const report = manyIssues(
      8_000,
      (row) => noise(2 * row),
      (row) => noise(2 * row + 1),
    );
    const text = formatSarif(report);
    const log = JSON.parse(text) as Json;
    expect(sarifProblems(log)).toEqual([]);
    expect(gzipSync(text).length).toBeLessThanOrEqual(10 * 1024 * 1024);
    const run = (log.runs as Json[])[0]!;
    const shown = (run.results as unknown[]).length;
    expect(shown).toBeGreaterThan(5_000);
    expect(run.properties).toMatchObject({ resultsShown: shown, resultsLeftOut: 16_001 - shown });
    expect(shown).toBeLessThan(25_000);
  });
});

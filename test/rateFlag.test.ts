import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';

describe('--rate', () => {
  it.each(['0.5', '2.5', '10'])('takes %s requests per second', async (rate) => {
    const { code, stderr } = await runCli([
      'status',
      'fixtures/status/valid.csv',
      '--dry-run',
      '--no-state',
      '--rate',
      rate,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it.each(['0', '-1', 'fast', '', 'Infinity'])('refuses %j with exit 2 and an example', async (rate) => {
    const { code, stderr } = await runCli([
      'status',
      'fixtures/status/valid.csv',
      '--dry-run',
      '--no-state',
      '--rate',
      rate,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('give a positive number of requests per second, e.g. 10 or 0.5');
  });
});

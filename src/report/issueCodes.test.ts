import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowRules } from '../flow/rules/index.js';
import { recordCheckCodes } from './issueCodes.js';

/** Every source file of src/ but tests and the sandbox's (its codes answer requests, they are no run's issues). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path.endsWith('sandbox') ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The codes a file gives issues: the literals of the first argument of `error(`, `warning(` and of
 * the file's own helpers whose first parameter is `code: string` (resolveRow's `ambiguous(`, `no(`).
 */
function emittedCodes(text: string): string[] {
  const helpers = [...text.matchAll(/(?:function\s+(\w+)|const\s+(\w+)\s*=)\s*\(\s*code: string/g)].map(
    (m) => m[1] ?? m[2]!,
  );
  const callers = ['error', 'warning', ...helpers].join('|');
  const calls = text.matchAll(new RegExp(`\\b(?:${callers})\\(\\s*([^,()]*?),`, 'g'));
  return [...calls].flatMap((call) =>
    [...call[1]!.matchAll(/'([a-z0-9]+(?:-[a-z0-9]+)+)'/g)].map((m) => m[1]!),
  );
}

describe('the catalogue of issue codes', () => {
  it('has words for every code src/ gives an issue, record checks, flow rules and chargebacks alike', () => {
    const described = new Set([...Object.keys(recordCheckCodes), ...flowRules.map((rule) => rule.code)]);
    const missing: string[] = [];
    const found = new Set<string>();
    for (const file of sourceFiles('src'))
      for (const code of emittedCodes(readFileSync(file, 'utf8'))) {
        found.add(code);
        if (!described.has(code)) missing.push(`${code} (${relative('src', file)})`);
      }
    expect(missing).toEqual([]);
    // The scan reaches the chargebacks' codes, given through error() and through resolveRow's helpers.
    for (const code of [
      'mangled-id',
      'unknown-row-type',
      'ignored-columns',
      'ambiguous-arn',
      'unknown-composite',
    ])
      expect(found).toContain(code);
  });

  it('finds codes in a first argument on its own line, in a ternary, and through a helper', () => {
    const text = [
      "error(\n  'first-code',\n  'path', 'message')",
      "warning(n === 0 ? 'second-code' : 'third-code', '', 'm')",
      "const no = (code: string, path: string) => x;\nno('fourth-code', 'p')",
      "other('not-a-code', 'x')",
    ].join('\n');
    expect(emittedCodes(text)).toEqual(['first-code', 'second-code', 'third-code', 'fourth-code']);
  });
});

import { UsageError } from '../core/errors.js';
import type { MappingProblem, MappingSpec } from '../mapping/mappingSpec.js';
import { parseMapping } from '../mapping/parseMapping.js';
import { MIB, readConfigFile } from '../decode/configFile.js';

/** Reads and parses `--map FILE` (YAML or JSON); its mistakes are a usage error naming their lines. */
export async function readMappingFile(path: string): Promise<MappingSpec> {
  const text = readConfigFile(path, {
    option: '--map',
    maxBytes: MIB,
    limit: '1 MiB',
    holds: 'a mapping names columns and converters',
    tooLargeHint:
      'a long values: table belongs in a CSV read with lookup: { from: FILE, key: KEY, column: COLUMN }',
    pathHint: 'check the path of the mapping file',
    regularHint: 'write the mapping to a file and name it (collect map proposes one)',
  }).toString('utf8');
  const { spec, problems } = parseMapping(text);
  if (!spec || problems.length > 0) throw mappingError(path, problems);
  return spec;
}

/** A mapping's mistakes, the first 20 with their lines: a usage error, nothing read. */
export function mappingError(path: string, problems: readonly MappingProblem[]): UsageError {
  const lines = problems
    .slice(0, 20)
    .map(
      (problem) =>
        `  ${path}:${problem.line}: ${problem.message}${problem.hint ? `\n    fix: ${problem.hint}` : ''}`,
    );
  const more = problems.length > 20 ? [`  ... and ${problems.length - 20} more`] : [];
  return new UsageError(
    `the mapping ${path} has ${problems.length === 1 ? 'a mistake' : `${problems.length} mistakes`}` +
      `; nothing was read:\n${[...lines, ...more].join('\n')}`,
    'fix the mapping file (mapping.md), then run again',
  );
}

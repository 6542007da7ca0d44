import { UsageError } from '../core/errors.js';
import { readCsvHeader } from '../decode/csvHeader.js';
import { shown, wrongDelimiter } from '../decode/csvDialect.js';
import type { InputSpec } from '../decode/openInput.js';
import type { CsvDialect } from '../mapping/mappingSpec.js';

/** `--delimiter` and `--encoding`, as parsed (cli/csvDialectOptions.ts). */
export interface CsvDialectFlags {
  delimiter?: string;
  encoding?: CsvDialect['encoding'];
}

/** The dialect the flags give (undefined: none); with --map they are a usage error, as the mapping says it. */
export function csvDialectOf(flags: CsvDialectFlags & { map?: string }): CsvDialect | undefined {
  if (flags.delimiter === undefined && flags.encoding === undefined) return undefined;
  if (flags.map !== undefined)
    throw new UsageError(
      '--delimiter and --encoding are for CSV read without a mapping',
      'say the dialect in the mapping instead: csv: { delimiter: ";", encoding: windows-1252 } (mapping.md)',
    );
  const delimiter = flags.delimiter === 'tab' || flags.delimiter === '\\t' ? '\t' : flags.delimiter;
  if (
    delimiter !== undefined &&
    ([...delimiter].length !== 1 || delimiter === '"' || /[\r\n]/.test(delimiter))
  )
    throw new UsageError(
      `--delimiter ${JSON.stringify(flags.delimiter)} is not one character`,
      'e.g. --delimiter ";" or --delimiter tab',
    );
  return {
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(flags.encoding ? { encoding: flags.encoding } : {}),
  };
}

/**
 * The CSV inputs with the flags' dialect, each named file's header checked first: a header that
 * holds another common delimiter and not the one read with is a usage error naming both.
 */
export async function withCsvDialect<T extends { spec: InputSpec }>(
  inputs: T[],
  dialect: CsvDialect | undefined,
): Promise<T[]> {
  const out = inputs.map((input) =>
    dialect && input.spec.format === 'csv' ? { ...input, spec: { ...input.spec, csv: dialect } } : input,
  );
  for (const { spec } of out) {
    if (spec.format !== 'csv' || spec.name === '-' || spec.records !== undefined) continue;
    const header = await readCsvHeader(spec).catch(() => undefined);
    const wrong = header ? wrongDelimiter(header, spec.csv) : undefined;
    if (wrong !== undefined)
      throw new UsageError(
        `${spec.name}: ${wrong}; nothing was read`,
        `read it with --delimiter ${shown(otherOf(header![0]!, spec.csv?.delimiter ?? ','))}`,
      );
  }
  return out;
}

function otherOf(cell: string, delimiter: string): string {
  return (
    [',', ';', '\t', '|'].find((candidate) => candidate !== delimiter && cell.includes(candidate)) ?? ';'
  );
}

import { resources } from '../../src/resources/registry.js';
import type { EndpointName } from '../../src/resources/resource.js';
import {
  compileMapping,
  type CompileContext,
  type CompiledMapping,
} from '../../src/mapping/compileMapping.js';
import type { RelatedRow, RelatedRows } from '../../src/mapping/compileRow.js';
import { parseMapping } from '../../src/mapping/parseMapping.js';

/** Test helper: a mapping's text compiled against in-memory CSV files (header row first). */
export function compileText(
  text: string,
  files: Record<string, string[][]>,
  options: Partial<CompileContext> = {},
): CompiledMapping & { parseProblems: string[] } {
  const { spec, problems } = parseMapping(text);
  const schemas = Object.fromEntries(
    Object.entries(resources).map(([name, r]) => [name, r.schema]),
  ) as unknown as CompileContext['schemas'];
  const empty = { entries: [], indexes: [], problems: [], ignored: new Map() };
  if (!spec)
    return {
      ...empty,
      parseProblems: problems.map((p) => `${p.line}: ${p.message}${p.hint ? ` (${p.hint})` : ''}`),
    };
  const compiled = compileMapping(spec, {
    files: Object.keys(files).slice(0, 1),
    header: (file) => files[file]?.[0],
    schemas,
    everyFileMapped: false,
    ...options,
  });
  return { ...compiled, parseProblems: problems.map((p) => `${p.line}: ${p.message}`) };
}

/** Test helper: lists and lookups over in-memory files, as the on-disk index answers them. */
export function memoryRelated(files: Record<string, string[][]>): RelatedRows {
  const rows = (file: string, keyColumn: string, key: string): RelatedRow[] => {
    const [header = [], ...data] = files[file] ?? [];
    const at = header.indexOf(keyColumn);
    return data.map((cells, n) => ({ cells, line: n + 2 })).filter((row) => row.cells[at] === key);
  };
  return { list: rows, lookup: (file, keyColumn, key) => rows(file, keyColumn, key)[0] };
}

export type { EndpointName };

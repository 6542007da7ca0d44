import { fastPaths } from './fastPaths.js';
import { convertCell, NEEDS_FULL, quickCell } from '../convert/cells.js';
import type { CsvColumn, RowBuilder } from '../convert/csvColumn.js';
import { columnCountIssue, hasHoles, sparseIssue } from '../convert/rowIssues.js';

export type { RowBuilder };

// Only a plain decimal index is written as a number: `[010]` would be read as octal.
const accessor = (segment: string) =>
  /^(0|[1-9]\d*)$/.test(segment) ? `[${segment}]` : `[${JSON.stringify(segment)}]`;

/**
 * Whether a plan can be compiled: no column inside another's field, and no name an object
 * inherits (`__proto__`, `constructor`, `toString`...): the compiled `??=` would find the
 * inherited value and write into it (`constructor.prototype.x` into every object of the thread,
 * which now serves file after file). The generic builder reads own properties only.
 */
function compilable(columns: readonly CsvColumn[]): boolean {
  const paths = new Set(columns.map((column) => column.path));
  return columns.every(
    (column) =>
      !column.segments.some((segment) => segment in Object.prototype) &&
      column.segments.slice(1).every((_, i) => !paths.has(column.segments.slice(0, i + 1).join('.'))),
  );
}

/**
 * Compiles a CSV plan into a function with the field names written in, so building a record
 * is a run of monomorphic property stores: the hot loop of a backfill. Returns undefined for
 * plans the generic builder must handle (conflicting or __proto__ columns).
 * Keys enter the code only as JSON string literals.
 */
export function compileRowBuilder(columns: readonly CsvColumn[], width: number): RowBuilder | undefined {
  if (!fastPaths || !compilable(columns)) return undefined;
  const code: string[] = ['let issues = null, c, v;', 'const r = {};'];
  code.push(`if (cells.length !== ${width}) (issues ??= []).push(columnCountIssue(cells.length, ${width}));`);
  const arrays = new Set<string>();
  columns.forEach((column, n) => {
    let target = 'r';
    column.segments.slice(0, -1).forEach((segment, i) => {
      const empty = column.indexNext[i] ? '[]' : '{}';
      if (column.indexNext[i])
        arrays.add(
          `r${column.segments
            .slice(0, i + 1)
            .map(accessor)
            .join('')}`,
        );
      target = `(${target}${accessor(segment)} ??= ${empty})`;
    });
    const store = `${target}${accessor(column.segments[column.segments.length - 1]!)}`;
    code.push(`c = cells[${column.position}];`, `if (c !== undefined && c !== '') {`);
    if (column.kind === 'string' || column.kind === 'unknown') {
      code.push(`  ${store} = c;`);
    } else {
      code.push(
        `  v = quickCell(c, ${JSON.stringify(column.kind)});`,
        `  if (v === NEEDS_FULL) {`,
        `    v = convertCell(c, ${JSON.stringify(column.kind)});`,
        `    if (!v.ok) (issues ??= []).push({ ...v.issue, path: paths[${n}] });`,
        `    v = v.ok ? v.value : c;`,
        `  }`,
        `  ${store} = v;`,
      );
    }
    code.push('}');
  });
  for (const array of arrays) {
    const safe = array.replace(/\]\[/g, ']?.[').replace(/^r\[/, 'r?.[');
    code.push(
      `if (${safe} !== undefined && hasHoles(${safe}) && !(issues ?? []).some((i) => i.code === ` +
        `'sparse-array')) (issues ??= []).push(sparseIssue());`,
    );
  }
  code.push('return { value: r, issues: issues ?? [] };');
  const factory = new Function(
    'convertCell',
    'quickCell',
    'NEEDS_FULL',
    'columnCountIssue',
    'hasHoles',
    'sparseIssue',
    'paths',
    `return (cells) => {\n${code.join('\n')}\n};`,
  );
  return factory(
    convertCell,
    quickCell,
    NEEDS_FULL,
    columnCountIssue,
    hasHoles,
    sparseIssue,
    columns.map((column) => column.path),
  ) as RowBuilder;
}

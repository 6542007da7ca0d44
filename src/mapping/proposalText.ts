/** A proposed mapping's entries written as YAML, each field with its reason as a comment. */
import { quote } from './proposeCells.js';
import type { Line } from './proposeLines.js';

export interface ListPlan {
  name: string;
  from: string;
  key: string;
  reason: string;
  fields: Line[];
  notes: string[];
}

export interface EntryPlan {
  endpoint: string;
  from: string;
  csv?: string;
  when?: { text: string; reason: string };
  fields: Line[];
  lists: ListPlan[];
  /** Comment lines after the entry: what was not proposed and why. */
  notes: string[];
}

const fieldLines = (lines: readonly Line[], indent: string) =>
  lines.map((line) => `${indent}${line.target}: ${line.source}   # ${line.reason}`);
const noteLines = (notes: readonly string[], indent: string) => notes.map((note) => `${indent}# ${note}`);

/** One entry of `records:`. */
export function entryText(entry: EntryPlan): string[] {
  const out = [`  - endpoint: ${entry.endpoint}`, `    from: ${quote(entry.from)}`];
  if (entry.csv) out.push(`    csv: ${entry.csv}`);
  if (entry.when) out.push(`    when: ${entry.when.text}   # ${entry.when.reason}`);
  out.push('    fields:', ...fieldLines(entry.fields, '      '));
  if (entry.lists.length > 0) out.push('    lists:');
  for (const list of entry.lists)
    out.push(
      `      ${list.name}:`,
      `        from: ${quote(list.from)}   # ${list.reason}`,
      `        key: ${quote(list.key)}`,
      '        fields:',
      ...fieldLines(list.fields, '          '),
      ...noteLines(list.notes, '        '),
    );
  out.push(...noteLines(entry.notes, '    '));
  return out;
}

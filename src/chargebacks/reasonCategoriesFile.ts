import { parse } from 'csv-parse/sync';
import { categories, type Category } from './reasonCategories.js';

export interface CategoryRow {
  network: string;
  code: string;
  category: Category;
  label: string;
}

/** A mistake in a --reason-categories file, at its line. */
export interface CategoryProblem {
  line: number;
  message: string;
}

const COLUMNS = ['network', 'reason_code', 'category'];

/**
 * A `--reason-categories` CSV: `network,reason_code,category[,label]`, one code a line; every
 * mistake is returned with its line (an unknown category, a missing column), none thrown.
 */
export function parseReasonCategories(text: string): { rows: CategoryRow[]; problems: CategoryProblem[] } {
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (cause) {
    return { rows: [], problems: [{ line: 1, message: `not CSV: ${(cause as Error).message}` }] };
  }
  const header = (records[0] ?? []).map((cell) => cell.toLowerCase());
  const missing = COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0)
    return {
      rows: [],
      problems: [
        { line: 1, message: `the header lacks ${missing.join(', ')} (network,reason_code,category,label)` },
      ],
    };
  const at = (name: string) => header.indexOf(name);
  const rows: CategoryRow[] = [];
  const problems: CategoryProblem[] = [];
  for (const [i, cells] of records.slice(1).entries()) {
    const line = i + 2;
    const [network, code, category] = COLUMNS.map((column) => cells[at(column)] ?? '');
    if (!network || !code) {
      problems.push({ line, message: 'network and reason_code must not be empty' });
      continue;
    }
    if (!(categories as readonly string[]).includes(category!)) {
      problems.push({ line, message: `category "${category}" is not one of ${categories.join(', ')}` });
      continue;
    }
    rows.push({ network, code, category: category as Category, label: cells[at('label')] ?? '' });
  }
  return { rows, problems };
}

import type { RawRecord } from '../../decode/sourceRecord.js';
import { delimitedLines, headerIndex, type Line } from './delimitedLines.js';
import { headerKey } from './foldText.js';
import type { Preset } from './presetSpec.js';

/** One row of a report as a preset reads it: its place, its values by column or path, its text for --rejects. */
export interface Item {
  index: number;
  line: number | null;
  get(path: string): unknown;
  raw: RawRecord;
  /** A first-cell row type the preset does not list (PayPal): the row is `unknown-row-type`. */
  unknownType?: string;
  /** CSV: the cell was a JSON-less text cell (the `.0` rule of A.0.6 applies to CSV cells only). */
  csv: boolean;
}

export interface PresetRead {
  items: Item[];
  /** The header's columns the preset does not read (one `ignored-columns` note). */
  ignored: string[];
  /** The count a trailer declares (PayPal's `SF`), to compare with the rows read. */
  declaredRows?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A dotted path into a JSON or XML item (`transactionDetails.nsu`). */
export function atPath(item: unknown, path: string): unknown {
  let here: unknown = item;
  for (const key of path.split('.')) {
    if (!isObj(here)) return undefined;
    here = here[key];
  }
  return here;
}

/** The columns a preset reads, folded: what it does not read is listed as ignored. */
function knownColumns(preset: Preset): Set<string> {
  const known = new Set(preset.signature);
  for (const source of preset.fields.values())
    for (const c of [...source.columns, ...(source.zoneColumns ?? [])]) known.add(headerKey(c));
  for (const c of preset.types?.columns ?? []) known.add(headerKey(c));
  for (const [c] of preset.types?.empty ?? []) known.add(headerKey(c));
  return known;
}

/**
 * A CSV or TSV report's rows under its preset: preamble, footers and first-cell structure skipped (A.0.1,
 * A.7, A.8).
 */
export function csvItems(text: string, delimiter: string, preset: Preset): PresetRead {
  const lines = delimitedLines(text, delimiter);
  const at = headerIndex(lines, preset.signature);
  const header = lines[at]!.cells;
  const positions = new Map(header.map((cell, i) => [headerKey(cell), i] as const));
  const preamble = new Set(lines.slice(0, at).map((l) => l.cells.join('\u0000')));
  const items: Item[] = [];
  let declaredRows: number | undefined;
  const first = preset.firstCell;
  for (const line of lines.slice(at + 1)) {
    if (preamble.has(line.cells.join('\u0000'))) continue;
    const head = (line.cells[0] ?? '').trim();
    if (preset.keyValueFooter && /^[^=\s]+=/.test(head)) continue;
    let unknownType: string | undefined;
    if (first && !first.rows.includes(head)) {
      // Each section's footer counts that section's rows (PayPal's SF): the file declares their sum.
      if (head === first.count) declaredRows = (declaredRows ?? 0) + Number(line.cells[1]);
      if (first.structure.includes(head)) continue;
      unknownType = head;
    }
    items.push(csvItem(line, header, positions, items.length, unknownType));
  }
  const known = knownColumns(preset);
  const ignored = header.filter((cell) => cell.trim() !== '' && !known.has(headerKey(cell)));
  return { items, ignored, ...(declaredRows === undefined ? {} : { declaredRows }) };
}

function csvItem(
  line: Line,
  header: string[],
  positions: ReadonlyMap<string, number>,
  index: number,
  unknownType: string | undefined,
): Item {
  return {
    index,
    line: line.line,
    csv: true,
    get: (column) => {
      const i = positions.get(headerKey(column));
      return i === undefined ? undefined : line.cells[i]?.trim();
    },
    raw: { kind: 'csv', header, cells: line.cells, line: line.line },
    ...(unknownType === undefined ? {} : { unknownType }),
  };
}

/** The list of a JSON document under its preset: the array, its `lists` key, or one item (a saved webhook). */
export function jsonList(document: unknown, preset: Preset): unknown[] | undefined {
  const fits = (item: unknown) =>
    isObj(item) &&
    preset.signature.every((key) => atPath(item, key) !== undefined) &&
    [...preset.shape].every(([key, value]) => item[key] === value);
  const candidates: unknown[] = [document];
  if (isObj(document)) {
    for (const key of preset.lists) candidates.push(document[key]);
    candidates.push(document.data, atPath(document, 'data.object'));
  }
  for (const candidate of candidates) {
    if (Array.isArray(candidate) && candidate.length > 0 && candidate.every(fits)) return candidate;
    if (fits(candidate)) return [candidate];
  }
  return undefined;
}

/** JSON and XML items: index in the list, no line (A.0.2); an item without the preset's `require` path is structure. */
export function treeItems(list: readonly unknown[], preset: Preset): PresetRead {
  const items: Item[] = [];
  for (const element of list) {
    if (preset.require !== undefined && atPath(element, preset.require) === undefined) continue;
    items.push({
      index: items.length,
      line: null,
      csv: false,
      get: (path) => atPath(element, path),
      raw: { kind: 'text', text: JSON.stringify(element) },
    });
  }
  return { items, ignored: [] };
}

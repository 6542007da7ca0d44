import { XMLParser } from 'fast-xml-parser';
import { UsageError } from '../../core/errors.js';
import { delimitedLines, delimiterOf, headerIndex, type Line } from './delimitedLines.js';
import { headerKey } from './foldText.js';
import { csvItems, jsonList, treeItems, type PresetRead } from './presetItems.js';
import type { Preset } from './presetSpec.js';

/** What a report file is (A.0.1): collect's own columns, or a preset with the rows it read. */
export type Recognised =
  | { format: 'collect' }
  | { format: string; preset: Preset; read: PresetRead; alsoFits?: string; delimiter?: string };

/** Layouts known not to be presets (A.16): named as the closest format when a file has their header. */
const notPresets: readonly { name: string; columns: readonly string[] }[] = [
  {
    name: 'the Checkout.com Disputes Report (not a preset: its key columns are not known)',
    columns: ['dispute id', 'dispute issue date utc', 'dispute indicator'],
  },
];

const ownColumns = ['acquirer_id', 'order_id'];

/** The preset whose signature the header comes closest to (the most signature columns present). */
function closest(cells: ReadonlySet<string>, presets: readonly Preset[]): string | undefined {
  const known = notPresets.find((layout) => layout.columns.every((c) => cells.has(c)));
  if (known) return known.name;
  let best: Preset | undefined;
  let most = 0;
  for (const preset of presets) {
    const n = preset.signature.filter((c) => cells.has(c)).length;
    if (n > most) [best, most] = [preset, n];
  }
  return best ? `${best.name} (${most} of its ${best.signature.length} signature columns)` : undefined;
}

function noFormat(file: string, what: string, near: string | undefined): UsageError {
  return new UsageError(
    `${file}: no format fits ${what}${near ? `; the closest format is ${near}` : ''}`,
    'read it with --map FILE (a mapping with an `endpoint: chargeback` entry); `collect ' +
      'chargebacks --formats` lists the formats read without one',
  );
}

/** The larger signature wins; a second preset that also fits is named in a note (A.0.1). */
function pick<T extends { preset: Preset }>(fits: T[]): (T & { alsoFits?: string }) | undefined {
  fits.sort((a, b) => b.preset.signature.length - a.preset.signature.length);
  const [first, second] = fits;
  return first && (second ? { ...first, alsoFits: second.preset.name } : first);
}

function recogniseCsv(file: string, text: string, presets: readonly Preset[]): Recognised {
  const delimiter = delimiterOf(text);
  let lines: Line[];
  try {
    lines = delimitedLines(text, delimiter);
  } catch {
    return { format: 'collect' }; // collect's own reader says where the quoting breaks
  }
  const header = new Set((lines[0]?.cells ?? []).map(headerKey));
  if (ownColumns.some((c) => header.has(c))) return { format: 'collect' };
  const csvPresets = presets.filter((p) => p.reads === 'csv');
  const found = pick(
    csvPresets.filter((preset) => headerIndex(lines, preset.signature) >= 0).map((preset) => ({ preset })),
  );
  if (found) {
    const { preset, alsoFits } = found;
    return {
      format: preset.name,
      preset,
      read: csvItems(text, delimiter, preset),
      delimiter,
      ...(alsoFits ? { alsoFits } : {}),
    };
  }
  const seen = new Set(lines.slice(0, 20).flatMap((l) => l.cells.map(headerKey)));
  const columns = (lines[0]?.cells ?? []).slice(0, 12).map((c) => JSON.stringify(c.trim()));
  throw noFormat(file, `its columns ${columns.join(', ')}`, closest(seen, csvPresets));
}

function recogniseJson(file: string, document: unknown, presets: readonly Preset[]): Recognised {
  const items = Array.isArray(document) ? document : [document];
  const first = items[0];
  if (typeof first === 'object' && first !== null && ownColumns.some((c) => c in first))
    return { format: 'collect' };
  const found = pick(
    presets
      .filter((p) => p.reads === 'json')
      .flatMap((preset) => {
        const list = jsonList(document, preset);
        return list ? [{ preset, list }] : [];
      }),
  );
  if (found) {
    const { preset, list, alsoFits } = found;
    return { format: preset.name, preset, read: treeItems(list, preset), ...(alsoFits ? { alsoFits } : {}) };
  }
  const keys = typeof first === 'object' && first !== null ? Object.keys(first) : [];
  const inner = !Array.isArray(document) && typeof document === 'object' && document !== null ? document : {};
  const nested = Object.values(inner).find(Array.isArray)?.[0] as object | undefined;
  const all = new Set([...keys, ...Object.keys(nested ?? {})]);
  const shown = (Array.isArray(document) ? keys : Object.keys(inner)).slice(0, 12).join(', ');
  throw noFormat(
    file,
    `its top-level keys ${shown}`,
    closest(
      all,
      presets.filter((p) => p.reads === 'json'),
    ),
  );
}

function recogniseXml(file: string, text: string, presets: readonly Preset[]): Recognised {
  const xmlPresets = presets.filter((p) => p.reads === 'xml');
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    isArray: (name) => xmlPresets.some((p) => p.lists.includes(name)),
  });
  let document: Record<string, unknown>;
  try {
    document = parser.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw new UsageError(`${file}: not well-formed XML: ${(cause as Error).message}`, 'check the file');
  }
  const root = Object.keys(document).find((key) => !key.startsWith('?'));
  const preset = xmlPresets.find((p) => p.signature[0] === root);
  if (!preset || root === undefined)
    throw noFormat(file, `its root element <${root ?? ''}>`, xmlPresets.map((p) => p.name).join(', '));
  const body = document[root];
  const list =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[preset.lists[0]!] : [];
  return { format: preset.name, preset, read: treeItems(Array.isArray(list) ? list : [], preset) };
}

/** A report's format by its header (CSV, TSV), its shape (JSON) or its root element (XML); no fit is exit 2. */
export function recogniseReport(file: string, text: string, presets: readonly Preset[]): Recognised {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return recogniseXml(file, text, presets);
  if (start.startsWith('[') || start.startsWith('{')) {
    let document: unknown;
    try {
      document = JSON.parse(start);
    } catch {
      return { format: 'collect' }; // NDJSON, or JSON collect's reader reports with its place
    }
    return recogniseJson(file, document, presets);
  }
  return recogniseCsv(file, text, presets);
}

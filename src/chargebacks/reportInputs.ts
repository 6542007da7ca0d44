import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { InputSpec } from '../decode/inputSpec.js';
import { inputSpec } from '../decode/openInput.js';
import type { InputFormat } from '../decode/formatName.js';
import type { ReadHooks } from '../decode/mappedCsvRecords.js';
import { shippedPresets } from './formats/loadPresets.js';
import type { Preset } from './formats/presetSpec.js';
import { recogniseReport, type Recognised } from './formats/recogniseReport.js';

/** One report file, its format (source-files.md A.0.1), and how its rows are read. */
export interface ReportInput {
  spec: InputSpec;
  /** `mapping`, `collect`, or a preset's name. */
  format: string;
  /** A mapping entry with `endpoint: chargeback` (format `mapping`). */
  map?: ReadHooks;
  /** A preset's reading of the file (format: the preset's name). */
  recognised?: Extract<Recognised, { preset: Preset }>;
}

/** A file's text: gunzipped when its name ends in .gz or it starts with gzip's magic bytes. */
function reportText(spec: InputSpec): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(spec.path ?? spec.name);
  } catch {
    return undefined; // collect's own reader names the file and why it cannot be read
  }
  if (spec.gzip || (bytes[0] === 0x1f && bytes[1] === 0x8b)) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      return undefined;
    }
  }
  return bytes.toString('utf8');
}

/**
 * Each report's format: a mapping when `--map` read it, else collect's own columns, else the
 * preset that recognises its header or shape; none is exit 2 (UsageError) before anything is sent.
 */
export function reportInputs(
  specs: readonly InputSpec[],
  mapped?: readonly { spec: InputSpec; map?: ReadHooks }[],
  presets: readonly Preset[] = shippedPresets(),
): ReportInput[] {
  if (mapped)
    return mapped.map((input) => ({
      spec: input.spec,
      format: input.map ? 'mapping' : 'collect',
      ...(input.map ? { map: input.map } : {}),
    }));
  return specs.map((spec) => {
    if (spec.name === '-' || spec.format === 'ndjson' || spec.records) return { spec, format: 'collect' };
    const text = reportText(spec);
    if (text === undefined) return { spec, format: 'collect' };
    const recognised = recogniseReport(spec.name, text, presets);
    return 'preset' in recognised
      ? { spec: presetSpec(spec, recognised), format: recognised.format, recognised }
      : { spec, format: 'collect' };
  });
}

/** How --rejects writes a preset's rows: CSV with the file's delimiter, or the items as JSON. */
function presetSpec(spec: InputSpec, recognised: Extract<Recognised, { preset: Preset }>): InputSpec {
  if (recognised.preset.reads !== 'csv') return { ...spec, format: 'json' };
  const delimiter = recognised.delimiter ?? ',';
  return { ...spec, format: 'csv', ...(delimiter === ',' ? {} : { csv: { ...spec.csv, delimiter } }) };
}

/**
 * A report named on the command line: collect's extensions, and the XML and TSV that acquirers send (read by
 * their content).
 */
export function reportSpec(name: string, override?: InputFormat): InputSpec {
  const base = name.replace(/\.gz$/i, '').toLowerCase();
  if (override === undefined && /\.(xml|tsv|txt)$/.test(base))
    return { name, format: base.endsWith('.xml') ? 'json' : 'csv', gzip: /\.gz$/i.test(name) };
  return inputSpec(name, override);
}

import { readFileSync } from 'node:fs';
import { shippedFiles } from '../../platform/singleBinary.js';
import { parse } from 'yaml';
import { UsageError } from '../../core/errors.js';
import { parsePreset, type Preset } from './presetSpec.js';

/**
 * The shipped presets' folder: `presets/chargebacks/` of the package, two levels above this module in src/
 * and in dist/.
 */
const presetUrl = (): URL => new URL('../../../presets/chargebacks/', import.meta.url);

let shipped: readonly Preset[] | undefined;

/** Every shipped preset (one YAML file each), by name; read once. A broken shipped file is collect's bug: it throws. */
export function shippedPresets(): readonly Preset[] {
  if (shipped) return shipped;
  const texts = shippedFiles('presets/chargebacks', presetUrl());
  const files = Object.keys(texts)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  shipped = files.map((file) => {
    try {
      return parsePreset(parse(texts[file]!), `presets/chargebacks/${file}`);
    } catch (cause) {
      throw new Error(`preset ${file}: ${(cause as Error).message}`, { cause });
    }
  });
  return shipped;
}

/**
 * A `--map` file that is a preset (its chargeback entry has `recognise:`): a user's copy of a
 * shipped one, read by the same engine; undefined for an ordinary mapping. Its mistakes are exit 2.
 */
export function presetOfMap(file: string): Preset | undefined {
  let document: unknown;
  try {
    document = parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // the mapping reader names what is wrong with the file
  }
  const records = (document as { records?: unknown } | null)?.records;
  const entry = Array.isArray(records) ? (records[0] as Record<string, unknown> | undefined) : undefined;
  if (entry?.recognise === undefined) return undefined;
  try {
    return parsePreset(document, file);
  } catch (cause) {
    throw new UsageError(
      `--map ${file}: ${(cause as Error).message}`,
      'compare it with a shipped preset (collect chargebacks --formats names their files)',
    );
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parsePreset, type Preset } from './presetSpec.js';

/** The shipped presets' folder: `presets/chargebacks/` of the package, two levels above this module in src/ and in dist/. */
export const presetFolder = fileURLToPath(new URL('../../../presets/chargebacks/', import.meta.url));

let shipped: readonly Preset[] | undefined;

/** Every shipped preset (one YAML file each), by name; read once. A broken shipped file is collect's bug: it throws. */
export function shippedPresets(): readonly Preset[] {
  if (shipped) return shipped;
  const files = readdirSync(presetFolder)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  shipped = files.map((file) => {
    try {
      return parsePreset(parse(readFileSync(presetFolder + file, 'utf8')), `presets/chargebacks/${file}`);
    } catch (cause) {
      throw new Error(`preset ${file}: ${(cause as Error).message}`, { cause });
    }
  });
  return shipped;
}

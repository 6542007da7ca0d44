import { describe, expect, it } from 'vitest';
import { shippedPresets } from './loadPresets.js';

describe('shippedPresets', () => {
  it('reads every shipped preset: names and signatures unique, each naming what it reads', () => {
    const presets = shippedPresets();
    expect(presets).toHaveLength(15);
    expect(new Set(presets.map((p) => p.name)).size).toBe(presets.length);
    const signatures = presets.map((p) => `${p.reads}:${p.signature.join('|')}|${[...p.shape].join('|')}`);
    expect(new Set(signatures).size).toBe(presets.length);
    for (const preset of presets) {
      expect(preset.signature.length).toBeGreaterThan(0);
      expect(preset.fields.get('acquirer_id')?.columns.length).toBeGreaterThan(0);
      expect(preset.file).toBe(`presets/chargebacks/${preset.name}.yaml`);
    }
  });
});

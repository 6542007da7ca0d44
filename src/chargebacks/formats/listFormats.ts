import type { Preset } from './presetSpec.js';

/** `collect chargebacks --formats`: each preset's name, what it reads, its signature and its file (A.0.1). */
export function formatsText(presets: readonly Preset[]): string {
  const lines = presets.map((p) => {
    const signature =
      p.reads === 'xml'
        ? `<${p.signature[0] ?? ''}> of <${p.lists[0] ?? ''}>`
        : `${p.written.join(', ')}` +
          `${p.shape.size > 0 ? ` (${[...p.shape].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`;
    return (
      `${p.name}  ${p.reads.toUpperCase()}  ${p.about}\n    ` +
      `${p.reads === 'csv' ? 'columns' : p.reads === 'json' ? 'keys' : 'root'}: ${signature}\n    ` +
      `file: ${p.file}`
    );
  });
  return (
    `${lines.join('\n')}\n\nAlso: collect (collect's own columns, docs/chargebacks.md) and mapping ` +
    `(--map FILE). Copy a preset's file, change it, and pass it with --map.\n`
  );
}

/** The same list as JSON (`--formats --format json`). */
export function formatsJson(presets: readonly Preset[]) {
  return presets.map((p) => ({
    name: p.name,
    reads: p.reads,
    about: p.about,
    signature: p.reads === 'xml' ? [p.written[0], p.lists[0]] : p.written,
    file: p.file,
  }));
}

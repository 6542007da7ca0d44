import { describe, expect, it } from 'vitest';
import { extensionList, formatOfExtension, inputFormatNames, inputFormats } from './inputFormats.js';
import { inputSpec } from './openInput.js';

describe('inputFormats', () => {
  it('names each extension for one format only, and inputSpec knows every one, gzipped too', () => {
    const all = inputFormatNames.flatMap((name) => [...inputFormats[name].extensions]);
    expect(new Set(all).size).toBe(all.length);
    for (const name of inputFormatNames)
      for (const extension of inputFormats[name].extensions) {
        expect(formatOfExtension(extension)).toBe(name);
        expect(inputSpec(`in/orders.${extension.toUpperCase()}.gz`)).toMatchObject({
          format: name,
          gzip: true,
        });
      }
    expect(() => inputSpec('orders.txt')).toThrow(/cannot tell the format/);
    expect(extensionList()).toMatch(/^\.json, .* or \.\w+$/);
  });

  it(
    'loads a reader for every format: a format of rows writes its rejects as CSV rows, one of ' +
      'records in its own',
    async () => {
      for (const name of inputFormatNames) {
        const entry = inputFormats[name];
        const reader = await entry.load();
        if (reader.shape === 'rows') expect(entry.rejects).toBe('csv');
        else expect(entry.rejects).toBe(name);
        // What decisions reads has a plain-objects reader.
        if (entry.decisions) expect(reader.objects).toBeTypeOf('function');
      }
    },
  );
});

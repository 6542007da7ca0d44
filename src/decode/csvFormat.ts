import { csvBytes } from './csvDialect.js';
import { parseCsvRows } from './csvRows.js';
import type { ObjectRow, RowsReader } from './formatReader.js';

/** CSV: rows of text cells under a header, cut at record boundaries for the workers (csvRows.ts). */
export const csvFormat: RowsReader = {
  shape: 'rows',
  rows({ spec, stream, limits }) {
    const bytes = csvBytes(stream as AsyncIterable<Buffer>, spec.csv);
    return (staging) => parseCsvRows(bytes, limits.maxRecordBytes, staging);
  },
  async *objects(_spec, stream): AsyncGenerator<ObjectRow> {
    // Loaded for a decisions file only.
    const { parse } = await import('csv-parse');
    const parser = stream.pipe(
      parse({
        columns: (header: string[]) => header.map((h) => h.trim()),
        bom: true,
        skip_empty_lines: true,
        relax_column_count: true,
        info: true,
      }),
    );
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield { line: info.lines, value: record };
    }
  },
};

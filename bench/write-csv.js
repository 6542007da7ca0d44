// Writes a file of generated lines in batches, waiting when the file stream is full.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export async function writeLines(path, rows, line, header) {
  const out = createWriteStream(path);
  if (header !== undefined) out.write(`${header}\n`);
  let batch = [];
  for (let n = 0; n < rows; n++) {
    batch.push(line(n));
    if (batch.length === 1000) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join('\n')}\n`);
  out.end();
  await once(out, 'finish');
}

/** A CSV: its header line, then one generated row per record. */
export function writeCsv(path, header, rows, row) {
  return writeLines(path, rows, row, header);
}

// Writes a CSV of generated rows in batches, waiting when the file stream is full.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export async function writeCsv(path, header, rows, row) {
  const out = createWriteStream(path);
  out.write(`${header}\n`);
  let batch = [];
  for (let n = 0; n < rows; n++) {
    batch.push(row(n));
    if (batch.length === 1000) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join('\n')}\n`);
  out.end();
  await once(out, 'finish');
}

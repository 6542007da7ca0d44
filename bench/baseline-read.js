// The bare read of a backfill folder: csv-parse for each CSV file, JSON.parse of each line of
// each NDJSON file, counting records; nothing else.
import { createReadStream, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parse } from 'csv-parse';

const dir = process.argv[2];
let records = 0;
for (const name of readdirSync(dir).sort()) {
  const stream = createReadStream(join(dir, name), { highWaterMark: 256 * 1024 });
  if (name.endsWith('.csv')) {
    let header = true;
    for await (const _row of stream.pipe(parse())) {
      if (header) header = false;
      else records++;
    }
  } else if (name.endsWith('.ndjson')) {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (line !== '') {
        JSON.parse(line);
        records++;
      }
    }
  }
}
process.stdout.write(`${records}\n`);

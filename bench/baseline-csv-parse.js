// The bare library: csv-parse reading the file and counting rows, nothing else.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

let rows = -1; // the header
for await (const _record of createReadStream(process.argv[2], { highWaterMark: 256 * 1024 }).pipe(parse()))
  rows++;
process.stdout.write(`${rows}\n`);

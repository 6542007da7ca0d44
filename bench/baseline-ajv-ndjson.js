// The bare loop over NDJSON: each line JSON.parse'd and checked by ajv compiled from `collect schema order`.
// node bench/baseline-ajv-ndjson.js FILE SCHEMA.json
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ajvValidator } from './ajvValidator.js';

const validate = ajvValidator(process.argv[3]);
let rows = 0;
let valid = 0;
const lines = createInterface({
  input: createReadStream(process.argv[2], { highWaterMark: 256 * 1024 }),
  crlfDelay: Infinity,
});
for await (const line of lines) {
  if (line === '') continue;
  rows++;
  if (validate(JSON.parse(line))) valid++;
}
process.stdout.write(`${rows} ${valid}\n`);

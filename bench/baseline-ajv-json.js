// The bare loop over a JSON array: the file JSON.parse'd whole, each element checked by ajv compiled
// from `collect schema order`. node bench/baseline-ajv-json.js FILE SCHEMA.json
import { readFileSync } from 'node:fs';
import { ajvValidator } from './ajvValidator.js';

const validate = ajvValidator(process.argv[3]);
let valid = 0;
const records = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const record of records) if (validate(record)) valid++;
process.stdout.write(`${records.length} ${valid}\n`);

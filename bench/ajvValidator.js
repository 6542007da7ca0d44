// The validator a user would write: ajv (2020-12 dialect, with formats) compiled from a JSON Schema file.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** ajv compiled from the schema in `path` (what `collect schema order` prints). */
export function ajvValidator(path) {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(path, 'utf8')));
}

// @ts-check
// Parses CSV bytes on a second core with csv-parse; the main thread converts and validates the rows.
// Plain JavaScript so that Node loads it as a worker both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'csv-parse';

if (!parentPort) throw new Error('csvParseWorker runs as a worker thread');
const port = parentPort;

/** Line breaks inside quoted cells: a row spans one more line for each. */
function breaksInside(/** @type {string[]} */ cells) {
  let breaks = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
    breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/** @type {string[][]} */
let rows = [];
/** @type {number[]} the 1-based line each row starts on */
let lines = [];
let line = 1;
let failed = false;
// Blank lines arrive as [''] rows: counted as lines here, dropped.
const parser = parse({ bom: true, relax_column_count: true, max_record_size: workerData?.maxRecordSize ?? 0 });
parser.on('data', (/** @type {string[]} */ row) => {
  const start = line;
  line += 1 + breaksInside(row);
  if (row.length === 1 && row[0] === '') return;
  rows.push(row);
  lines.push(start);
});
const flush = (/** @type {object} */ extra) => {
  port.postMessage({ rows, lines, ...extra });
  rows = [];
  lines = [];
};
parser.on('error', (/** @type {Error & { code?: string }} */ cause) => {
  failed = true;
  flush({ error: { code: cause.code ?? 'CSV_ERROR', message: cause.message, line } });
});
parser.on('end', () => flush({ done: true }));

port.on('message', (/** @type {{ chunk?: ArrayBuffer, end?: true }} */ message) => {
  if (failed) return;
  if (message.end) {
    parser.end();
    return;
  }
  parser.write(Buffer.from(/** @type {ArrayBuffer} */ (message.chunk)), () => {
    if (!failed) flush({});
  });
});

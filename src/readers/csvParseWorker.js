// @ts-check
// Parses CSV bytes on a second core with csv-parse. Given `stageUrl`, it also builds the records
// (csvRecordStage.ts, with the plan the main thread makes of the header it sends first), so the
// main thread only validates and judges them. Plain JavaScript so that Node loads it as a worker
// both from src/ (tests) and dist/.
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'csv-parse';

if (!parentPort) throw new Error('csvParseWorker runs as a worker thread');
const port = parentPort;
/** @type {{ maxRecordSize?: number, stageUrl?: string }} */
const options = workerData ?? {};
const stages = options.stageUrl ? await import(options.stageUrl) : undefined;

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
/** Staging: the header is sent alone, the rows after it wait for its plan. */
let headerSent = !stages;
/** @type {((rows: string[][], lines: number[]) => object) | undefined} */
let stage;
/** @type {object | undefined} the end (or error) reached before the plan came */
let held;

/** Chunks answered by no message yet (their rows held back for the plan). */
let acks = 0;

const post = (/** @type {object} */ extra) => {
  port.postMessage(stage ? { staged: stage(rows, lines), acks, ...extra } : { rows, lines, acks, ...extra });
  rows = [];
  lines = [];
  acks = 0;
};

/** Answers one chunk (or the end, or the error): its rows, or nothing yet while the plan is awaited. */
const flush = (/** @type {object} */ extra) => {
  acks++;
  if (stages && headerSent && !stage) {
    if (Object.keys(extra).length > 0) held = extra;
    return;
  }
  post(extra);
};

// Blank lines arrive as [''] rows: counted as lines here, dropped.
const parser = parse({ bom: true, relax_column_count: true, max_record_size: options.maxRecordSize ?? 0 });
parser.on('data', (/** @type {string[]} */ row) => {
  const start = line;
  line += 1 + breaksInside(row);
  if (row.length === 1 && row[0] === '') return;
  if (!headerSent) {
    headerSent = true;
    port.postMessage({ header: row, line: start });
    return;
  }
  rows.push(row);
  lines.push(start);
});
parser.on('error', (/** @type {Error & { code?: string }} */ cause) => {
  failed = true;
  flush({ error: { code: cause.code ?? 'CSV_ERROR', message: cause.message, line } });
});
parser.on('end', () => flush({ done: true }));

port.on('message', (/** @type {{ chunk?: ArrayBuffer, end?: true, plan?: object }} */ message) => {
  if (message.plan) {
    stage = stages.createRowStage(message.plan);
    post(held ?? {});
    return;
  }
  if (failed) return;
  if (message.end) {
    parser.end();
    return;
  }
  parser.write(Buffer.from(/** @type {ArrayBuffer} */ (message.chunk)), () => {
    if (!failed) flush({});
  });
});

// @ts-check
// Reads pieces of a file of any input format on another core (pieceTask.ts, compiled, at `taskUrl`):
// each piece starts and ends at a record boundary, so workers parse pieces of one file side by side.
// A worker serves one file at a time and then the next (pieceWorkerPool.ts, pieceService.js). Plain
// JavaScript so that Node loads it as a worker both from src/ (tests) and dist/.
import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { servePieces } from './pieceService.js';

if (!parentPort) throw new Error('pieceWorker runs as a worker thread');
/** @type {{ taskUrl: string }} */
const { taskUrl } = workerData;
// A thread compiles its modules on its own: Node's compile cache (enabled by the bin) spares it that too.
enableCompileCache();
const { createPieceTask } = await import(taskUrl);
servePieces(parentPort, createPieceTask);

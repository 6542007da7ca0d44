import { readdirSync, readFileSync } from 'node:fs';
import { getAsset, isSea } from 'node:sea';
import { debuglog } from 'node:util';
import vm from 'node:vm';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * What differs when collect runs as the single binary (`npm run build:binary`, docs/binary.md):
 * no file of the package exists there, so a worker thread starts from its script bundled into the
 * binary, and a user's module is imported by Node's own loader (the binary's import() loads built-ins only).
 */
const inBinary = isSea();
/** NODE_DEBUG=collect tells where each worker thread started from. */
const debug = debuglog('collect');

/**
 * Starts the worker thread whose script is `file`: that file, or in the binary the same script bundled under
 * its name.
 */
export function startWorker(file: URL, options: WorkerOptions): Worker {
  const name = file.pathname.slice(file.pathname.lastIndexOf('/') + 1);
  debug('worker %s started from %s', name, inBinary ? 'the binary' : 'its file');
  return inBinary
    ? new Worker(getAsset(name, 'utf8'), { ...options, eval: true })
    : new Worker(file, options);
}

/**
 * The files of a folder the package ships (`folder`, e.g. presets/chargebacks, found at `url`), name
 * to text: read from the folder, or in the binary from the asset scripts/buildBinary.js made of it.
 */
export function shippedFiles(folder: string, url: URL): Record<string, string> {
  if (inBinary) return JSON.parse(getAsset(folder, 'utf8')) as Record<string, string>;
  const names = readdirSync(url);
  return Object.fromEntries(names.map((name) => [name, readFileSync(new URL(name, url), 'utf8')]));
}

/** The module at `url` (a file: URL), as import() loads it. */
export function importFile(url: string): Promise<unknown> {
  return inBinary ? binaryImport()(url) : import(url);
}

let loader: ((url: string) => Promise<unknown>) | undefined;

/** An import() compiled with Node's default loader: the binary's own code has one for built-ins only. */
function binaryImport(): (url: string) => Promise<unknown> {
  if (loader) return loader;
  // Node flags this loader experimental when it first loads a module: a user has nothing to do about it.
  const emit = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    if (String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    Reflect.apply(emit, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  loader = new vm.Script('(url) => import(url)', {
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext() as (url: string) => Promise<unknown>;
  return loader;
}

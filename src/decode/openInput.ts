import { constants, createReadStream, openSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { addAbortSignal, PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError, UsageError } from '../core/errors.js';
import { inputMeter } from './inputMeter.js';
import type { InputFormat } from './formatName.js';
import { extensionList, formatOfExtension, inputFormatNames } from './inputFormats.js';
import type { InputSpec } from './inputSpec.js';

export type { InputSpec } from './inputSpec.js';

/** Works out the format of an input from its extension (decode/inputFormats.ts), or from `--input-format`. */
export function inputSpec(name: string, override?: InputFormat): InputSpec {
  const gzip = name.toLowerCase().endsWith('.gz');
  const base = gzip ? name.slice(0, -3) : name;
  const extension = base.slice(base.lastIndexOf('.') + 1).toLowerCase();
  const format = override ?? (base.includes('.') ? formatOfExtension(extension) : undefined);
  if (!format) {
    throw new UsageError(
      name === '-'
        ? 'standard input has no file name to tell its format'
        : `cannot tell the format of ${name} from its extension`,
      `add --input-format ${inputFormatNames.join('|')}, or name the file ${extensionList()} (optionally .gz)`,
    );
  }
  return { name, format, gzip };
}

/** Fails early, before any record is read, when a named file cannot be opened. */
export async function checkReadable(spec: InputSpec): Promise<void> {
  if ((spec.name === '-' && spec.path === undefined) || spec.records !== undefined) return;
  try {
    const info = await stat(spec.path ?? spec.name);
    if (info.isDirectory())
      throw new InputError(`${spec.name} is a folder, not a file`, 'name the files inside it');
  } catch (cause) {
    if (cause instanceof InputError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `${spec.name}: no such file`
        : `${spec.name}: cannot be read (${code ?? String(cause)})`,
      code === 'ENOENT' ? 'check the path' : 'check the permissions of the file',
    );
  }
}

/**
 * A named input's bytes. A FIFO (`mkfifo`, `<(...)`) is opened non-blocking and read as a pipe
 * through the event loop: opened as a file, its open() waits for a writer, and each read for data,
 * on Node's thread pool, and process.exit waits for the pool, so no signal could end the run.
 */
function openFile(path: string): Readable {
  try {
    if (statSync(path).isFIFO())
      return new Socket({
        fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK),
        readable: true,
        writable: false,
      });
  } catch (cause) {
    // Said as a read error of the input, as createReadStream says it.
    const failed = new PassThrough();
    process.nextTick(() => failed.destroy(cause as Error));
    return failed;
  }
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  inputMeter.watch(file);
  return file;
}

/**
 * The bytes of an input, decompressed when it ends in .gz; `signal` ends the reading (Ctrl-C), whatever it
 * waits on.
 */
export function openInput(spec: InputSpec, stdin: Readable, signal?: AbortSignal): Readable {
  const path = spec.path ?? spec.name;
  const raw: Readable = path === '-' ? stdin : openFile(path);
  if (signal) addAbortSignal(signal, raw);
  if (!spec.gzip) return raw;
  const gunzip = createGunzip();
  raw.on('error', (cause: Error) => gunzip.destroy(cause));
  // A reader that stops early closes the gunzip stream: the file goes with it.
  gunzip.once('close', () => raw.destroy());
  return raw.pipe(gunzip);
}

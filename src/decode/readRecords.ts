import type { Readable } from 'node:stream';
import { InputError, isCollectError } from '../core/errors.js';
import { registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { readRowRecords } from './csvRecords.js';
import type { ReadHooks } from './mappedCsvRecords.js';
import { transformRecords } from './transformRecords.js';
import { checkRecord, type CheckedRecord, type CheckOptions } from '../check/checkRecord.js';
import { learnedHash } from '../fast/recordHash.js';
import { inputFormats } from './inputFormats.js';
import { validatorOf } from '../fast/fastValidator.js';
import { openInput, type InputSpec } from './openInput.js';
import { defaultLimits, type ReadLimits, type RecordNeeds, type SourceRecord } from './sourceRecord.js';
import { InvalidUtf8Error } from './utf8Check.js';
import { error } from '../core/issue.js';

/** How a run reads its inputs. */
export interface ReadOptions {
  hooks?: ReadHooks | undefined;
  limits?: ReadLimits | undefined;
  /** The run's clock: given, CSV records come checked where they are parsed (see `validated`). */
  now?: Date | undefined;
  /** What the run needs of a record checked where it is read (default: its value and raw row). */
  needs?: RecordNeeds;
  /** Aborted: the reading ends where it is, as if the input ended (Ctrl-C). */
  signal?: AbortSignal | undefined;
}

/** A record read and held to its endpoint. */
export type ReadRecord = SourceRecord & { checked: CheckedRecord };

/**
 * Every record of one input, in order, with its location and its check (made where it was decoded,
 * or here: check/checkRecord.ts); decoding failures become an InputError.
 */
export function readRecords(
  spec: InputSpec,
  resource: Resource,
  stdin: Readable,
  options: ReadOptions = {},
): AsyncGenerator<ReadRecord> {
  const records = readInput(spec, resource, stdin, options);
  const decoded = options.hooks?.transform
    ? transformRecords(records, options.hooks.transform, options.signal)
    : records;
  const needs = options.needs ?? 'values';
  return checkedRecords(decoded, resource, {
    now: options.now ?? new Date(),
    digest: needs !== 'ids',
    hashOf: learnedHash(resource.name),
    validatorOf,
  });
}

/** The records of an input, each checked on this thread unless its decoder checked it already. */
async function* checkedRecords(
  records: AsyncGenerator<SourceRecord>,
  resource: Resource,
  options: CheckOptions,
): AsyncGenerator<ReadRecord> {
  const fieldsChecked = { ...options, fieldsChecked: true };
  for await (const record of records) {
    record.checked ??= checkRecord(
      resource,
      record.value,
      record.issues,
      record.fieldsChecked ? fieldsChecked : options,
      record.children,
    );
    yield record as ReadRecord;
  }
}

async function* readInput(
  spec: InputSpec,
  resource: Resource,
  stdin: Readable,
  options: ReadOptions,
): AsyncGenerator<SourceRecord> {
  const { hooks, limits = defaultLimits, now } = options;
  const map = hooks?.mapping;
  if (spec.records !== undefined) {
    yield* spec.records.map((value, index) => ({
      file: spec.name,
      index,
      line: null,
      value,
      issues: [],
      raw: { kind: 'text' as const, text: JSON.stringify(value) },
    }));
    return;
  }
  // Checked where it is read (the run's clock given, no transform in between, an endpoint a worker can look up).
  const check =
    now && !hooks?.transform && registry.get(resource.name) === resource
      ? { endpoint: resource.name, now, needs: options.needs ?? 'values' }
      : undefined;
  // A mapping's code (luxon's time zones among it) is loaded only for a mapped input, before the input is opened.
  const mapped = map ? await import('./mappedCsvRecords.js') : undefined;
  const reader = await inputFormats[spec.format].load();
  const stream = openInput(spec, stdin, options.signal);
  try {
    const context = { spec, stream, limits, check };
    if (reader.shape === 'records' && map) {
      yield {
        file: spec.name,
        index: null,
        line: null,
        issues: [
          error(
            'mapping-needs-csv',
            '',
            'a mapping reads CSV exports; this input is not CSV, so it was not read',
            { hint: 'give the CSV export, or leave --map out for JSON and NDJSON records' },
          ),
        ],
      };
    } else if (reader.shape === 'records') yield* reader.records(context);
    else if (mapped && map) yield* mapped.readMappedRows(reader.rows(context), spec.name, map, check);
    else
      yield* readRowRecords(reader.rows(context), spec.name, {
        schema: resource.schema,
        limits,
        ...(check ? { check } : {}),
      });
  } catch (cause) {
    if (options.signal?.aborted === true) return;
    if (cause instanceof InvalidUtf8Error) {
      yield {
        file: spec.name,
        index: null,
        line: cause.line,
        issues: [
          error('invalid-utf8', '', 'the file is not valid UTF-8 here; reading stopped', {
            hint: 'save the export as UTF-8 (iconv -f LATIN1 -t UTF-8, or your tool\'s "UTF-8" option)',
          }),
        ],
      };
      return;
    }
    // Already says where and how to fix it (a CSV that stops mid-file, csvStopped.ts).
    if (isCollectError(cause)) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw cause;
    const gzip = spec.gzip && code.startsWith('Z_');
    throw new InputError(
      gzip
        ? `${spec.name}: not a valid gzip stream (${(cause as Error).message})`
        : `${spec.name}: cannot be read (${(cause as Error).message})`,
      gzip ? 'check that the file is complete and really gzip-compressed' : 'check the file',
    );
  } finally {
    stream.destroy();
  }
}

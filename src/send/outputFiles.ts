import { lstatSync, mkdirSync, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { type CollectError, UsageError } from '../core/errors.js';
import { operationalError } from '../core/operationalError.js';
import { csvLine } from '../convert/csvLine.js';
import { encodeText, fitToEncoding, unencodable } from '../convert/textEncoding.js';
import type { CsvDialect } from '../mapping/mappingSpec.js';
import { neutraliseFormula } from '../convert/formulaCells.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import { inputFormats, type InputFormatEntry } from '../decode/inputFormats.js';
import type { InputSpec } from '../decode/openInput.js';
import type { RawRecord } from '../decode/sourceRecord.js';
import { isRecord } from '../schema/checks.js';
import { appendResultsFile, createRejectsFile, isRejectsFile, rejectsPaths } from './safeOutput.js';

export type Redact = (text: string) => string;

type RejectsFormat = InputFormatEntry['rejects'];

/** A file of `flag` that cannot be written: a full or read-only disk with its fix, else its cause. */
function cannotWrite(flag: string, path: string, cause: Error): CollectError {
  return (
    operationalError(cause, { name: `${flag} ${path}`, path }) ??
    new UsageError(`cannot write ${path}: ${cause.message}`, `check the path, or name a new file for ${flag}`)
  );
}

function closeStream(stream: WriteStream, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The first failure says why (an open refused, a full disk); a later one only that the stream is gone.
    const fail = (cause: Error) => reject(cannotWrite(flag, String(stream.path), stream.errored ?? cause));
    stream.once('error', fail);
    // A failed open (a link or file planted at the path) reaches end's callback before any 'error' listener.
    stream.end((cause?: Error | null) => (cause ? fail(cause) : resolve()));
  });
}

interface RejectsSink {
  stream: WriteStream;
  /** The format its records are written in (decode/inputFormats.ts: the input's, or CSV rows). */
  format: RejectsFormat;
  /**
   * A CSV source's delimiter, quote and encoding: its rejects are written in them, so the same mapping reads
   * them back.
   */
  dialect?: CsvDialect;
  count: number;
  /**
   * The lines written of a mapped file: a row that built several rejected records (an order's row and its
   * status, a product of many orders) is written once.
   */
  lines?: Set<number>;
}

/**
 * `--rejects PATH`: every invalid or rejected record in its input's format with the reasons
 * added (a `collect_reason` column or field), ready to fix and feed back. One input: PATH is
 * the file; several: PATH is a folder with one file per input. A mapped record takes every row
 * it was built from: its own, and its lists' and lookups' rows, each to the file named after
 * its source (the same mapping reads the folder back). Each run writes its files anew
 * (a rejects file of an earlier run is replaced, by an empty one when nothing is rejected),
 * created 0600 and never through a link; the CLI refuses any other existing file beforehand.
 */
export class RejectsWriter {
  /** By the path written. */
  private readonly sinks = new Map<string, RejectsSink>();
  private readonly specs: Map<string, InputSpec>;
  private readonly paths: Map<string, string>;
  /** The path of each file's rows by its name without a folder: a list's or lookup's file, as the mapping names it. */
  private readonly byName = new Map<string, string>();
  /** The dialect of each path written: its source's. */
  private readonly dialects = new Map<string, CsvDialect | undefined>();
  /** The paths that held an earlier run's rejects: replaced even when this run rejects nothing. */
  private readonly earlier = new Set<string>();
  /** Why no file can be written (the folder is a link or cannot be made); reported by close(). */
  private failure: CollectError | undefined;
  /** The first source cell its file's encoding cannot hold (never written in another one); reported by close(). */
  private unwritable: string | undefined;

  constructor(
    private readonly target: string,
    inputs: readonly InputSpec[],
    private readonly redact: Redact,
    folder?: boolean,
  ) {
    this.specs = new Map(inputs.map((spec) => [spec.name, spec]));
    this.paths = rejectsPaths(target, inputs, folder);
    for (const [name, path] of this.paths)
      if (!this.byName.has(basename(name))) this.byName.set(basename(name), path);
    for (const [name, path] of this.paths) this.dialects.set(path, this.specs.get(name)?.csv);
    try {
      if (folder ?? this.specs.size > 1) {
        mkdirSync(target, { recursive: true, mode: 0o700 });
        if (lstatSync(target).isSymbolicLink())
          this.failure = new UsageError(
            `${target} is a symbolic link; collect never writes through one`,
            'name a new file or folder for --rejects',
          );
      }
      for (const path of this.paths.values())
        if (lstatSync(path, { throwIfNoEntry: false })?.isFile() && isRejectsFile(path))
          this.earlier.add(path);
    } catch (cause) {
      this.failure = cannotWrite('--rejects', target, cause as Error);
    }
  }

  private sink(path: string | undefined, format: RejectsFormat): RejectsSink | undefined {
    if (path === undefined || this.failure !== undefined) return undefined;
    let sink = this.sinks.get(path);
    if (sink) return sink;
    const dialect = this.dialects.get(path);
    sink = { stream: createRejectsFile(path), format, ...(dialect ? { dialect } : {}), count: 0 };
    this.sinks.set(path, sink);
    return sink;
  }

  write(file: string, raw: RawRecord | undefined, reason: string): void {
    const spec = this.specs.get(file);
    if (!spec || !raw) return;
    const sink = this.sink(this.paths.get(file), inputFormats[spec.format].rejects);
    if (!sink) return;
    // The key never reaches a file, not even where an input happens to contain it.
    const safe = this.redact(reason);
    if (raw.kind === 'csv') {
      this.writeRow(sink, raw.header, raw.cells, raw.line, safe, file);
      const at = `part of the record of ${basename(file)} line ${raw.line ?? '?'}, rejected: `;
      for (const row of raw.related ?? []) {
        const related = this.sink(this.byName.get(basename(row.file)), 'csv');
        if (related) this.writeRow(related, row.header, row.cells, row.line, `${at}${safe}`, row.file);
      }
    } else {
      let value: unknown;
      try {
        value = JSON.parse(raw.text);
      } catch {
        value = undefined;
      }
      // A record nested past any real one (too-deep) is kept as its text: writing it back as JSON would
      // recurse that deep.
      if (nestsDeeperThan(value, MAX_DEPTH)) value = undefined;
      const line = this.redact(
        JSON.stringify(
          isRecord(value)
            ? { ...value, [REASON_FIELD]: safe }
            : { [REASON_FIELD]: safe, collect_raw: raw.text },
        ),
      );
      if (sink.format === 'json') sink.stream.write(`${sink.count === 0 ? '[\n' : ',\n'}${line}`);
      else sink.stream.write(`${line}\n`);
      sink.count++;
    }
  }

  /**
   * One CSV row with its reason; a mapped row (it knows its line) once, though it built several records.
   * Rows without a line are each a record of their own: identical ones are each written, as counted.
   * In its source's dialect; a character of the reason its encoding cannot hold is written `?`.
   */
  private writeRow(
    sink: RejectsSink,
    header: readonly string[],
    cells: readonly string[],
    line: number | undefined,
    reason: string,
    source: string,
  ): void {
    if (line !== undefined) {
      sink.lines ??= new Set();
      if (sink.lines.has(line)) return;
      sink.lines.add(line);
    }
    const encoding = sink.dialect?.encoding ?? 'utf-8';
    const cell = [...header, ...cells].find((text) => unencodable(text, encoding) !== undefined);
    if (cell !== undefined) {
      const character = unencodable(cell, encoding)!;
      const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      this.unwritable ??=
        `${source} line ${line ?? '?'}: a cell holds "${character}" (${code}), which ${encoding} ` +
        `cannot hold; its rejected rows were not written, rather than in another encoding the mapping ` +
        `would misread`;
      return;
    }
    // Formula-like cells get a ' in front (a spreadsheet must not run them); reading the file back removes it.
    const text = (cells: readonly string[]) =>
      encodeText(this.redact(`${csvLine(cells.map(neutraliseFormula), sink.dialect)}\n`), encoding);
    if (sink.count === 0) sink.stream.write(text([...header, REASON_FIELD]));
    sink.stream.write(text([...cells, fitToEncoding(reason, encoding)]));
    sink.count++;
  }

  async close(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    // An earlier run's rejects must not pass for this run's: an input with none gets an empty file.
    for (const [file, path] of this.paths) {
      if (this.earlier.has(path) && !this.sinks.has(path))
        this.sinks.set(path, {
          stream: createRejectsFile(path),
          format: inputFormats[this.specs.get(file)!.format].rejects,
          count: 0,
        });
    }
    for (const sink of this.sinks.values()) {
      if (sink.format === 'json') sink.stream.write(sink.count === 0 ? '[]\n' : '\n]\n');
      await closeStream(sink.stream, '--rejects');
    }
    if (this.unwritable !== undefined)
      throw new UsageError(
        this.unwritable,
        "say the file's real encoding in the mapping's csv: (utf-8 holds every character), then run again",
      );
  }
}

/**
 * `--results FILE`: one JSON line per sent record with the service's status code and body.
 * Appended to, never emptied: a re-run sends only what is left, so the first run's answers
 * (its evaluations) must stay in the file next to the re-run's.
 */
export class ResultsWriter {
  private readonly stream: WriteStream;

  constructor(
    path: string,
    private readonly redact: Redact,
  ) {
    this.stream = appendResultsFile(path);
  }

  write(line: Record<string, unknown>): void {
    this.stream.write(`${this.redact(JSON.stringify(line))}\n`);
  }

  close(): Promise<void> {
    return closeStream(this.stream, '--results');
  }
}

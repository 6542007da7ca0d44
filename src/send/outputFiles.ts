import { lstatSync, mkdirSync, type WriteStream } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { csvLine } from '../convert/csvLine.js';
import { neutraliseFormula } from '../convert/formulaCells.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import type { InputSpec } from '../decode/openInput.js';
import type { RawRecord } from '../decode/sourceRecord.js';
import { isRecord } from '../schema/checks.js';
import { appendResultsFile, createRejectsFile, isRejectsFile, rejectsPaths } from './safeOutput.js';

export type Redact = (text: string) => string;

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (cause: Error) =>
      reject(
        new UsageError(
          `cannot write ${String(stream.path)}: ${cause.message}`,
          'check the path, or name a new file',
        ),
      );
    stream.once('error', fail);
    // A failed open (a link or file planted at the path) reaches end's callback before any 'error' listener.
    stream.end((cause?: Error | null) => (cause ? fail(cause) : resolve()));
  });
}

interface RejectsSink {
  stream: WriteStream;
  format: InputSpec['format'];
  count: number;
  /** The last CSV row written: a row mapped into two records (an order and its status) is written once. */
  last?: readonly string[];
}

/**
 * `--rejects PATH`: every invalid or rejected record in its input's format with the reasons
 * added (a `collect_reason` column or field), ready to fix and feed back. One input: PATH is
 * the file; several: PATH is a folder with one file per input. Each run writes its files anew
 * (a rejects file of an earlier run is replaced, by an empty one when nothing is rejected),
 * created 0600 and never through a link; the CLI refuses any other existing file beforehand.
 */
export class RejectsWriter {
  private readonly sinks = new Map<string, RejectsSink>();
  private readonly specs: Map<string, InputSpec>;
  private readonly paths: Map<string, string>;
  /** The paths that held an earlier run's rejects: replaced even when this run rejects nothing. */
  private readonly earlier = new Set<string>();
  /** Why no file can be written (the folder is a link or cannot be made); reported by close(). */
  private failure: string | undefined;

  constructor(
    private readonly target: string,
    inputs: readonly InputSpec[],
    private readonly redact: Redact,
  ) {
    this.specs = new Map(inputs.map((spec) => [spec.name, spec]));
    this.paths = rejectsPaths(target, inputs);
    try {
      if (this.specs.size > 1) {
        mkdirSync(target, { recursive: true, mode: 0o700 });
        if (lstatSync(target).isSymbolicLink())
          this.failure = `${target} is a symbolic link; collect never writes through one`;
      }
      for (const path of this.paths.values())
        if (lstatSync(path, { throwIfNoEntry: false })?.isFile() && isRejectsFile(path))
          this.earlier.add(path);
    } catch (cause) {
      this.failure = `cannot write ${target}: ${(cause as Error).message}`;
    }
  }

  private sink(file: string): RejectsSink | undefined {
    let sink = this.sinks.get(file);
    if (sink) return sink;
    const spec = this.specs.get(file);
    if (!spec || this.failure !== undefined) return undefined;
    sink = { stream: createRejectsFile(this.paths.get(file)!), format: spec.format, count: 0 };
    this.sinks.set(file, sink);
    return sink;
  }

  write(file: string, raw: RawRecord | undefined, reason: string): void {
    const sink = this.sink(file);
    if (!sink || !raw) return;
    // The key never reaches a file, not even where an input happens to contain it.
    const safe = this.redact(reason);
    if (raw.kind === 'csv') {
      if (
        sink.last &&
        sink.last.length === raw.cells.length &&
        sink.last.every((cell, i) => cell === raw.cells[i])
      )
        return;
      sink.last = raw.cells;
      // Formula-like cells get a ' in front (a spreadsheet must not run them); reading the file back removes it.
      if (sink.count === 0)
        sink.stream.write(this.redact(`${csvLine([...raw.header, REASON_FIELD].map(neutraliseFormula))}\n`));
      sink.stream.write(this.redact(`${csvLine([...raw.cells, safe].map(neutraliseFormula))}\n`));
    } else {
      let value: unknown;
      try {
        value = JSON.parse(raw.text);
      } catch {
        value = undefined;
      }
      // A record nested past any real one (too-deep) is kept as its text: writing it back as JSON would recurse that deep.
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
    }
    sink.count++;
  }

  async close(): Promise<void> {
    if (this.failure !== undefined)
      throw new UsageError(this.failure, 'name a new file or folder for --rejects');
    // An earlier run's rejects must not pass for this run's: an input with none gets an empty file.
    for (const [file, path] of this.paths) {
      if (this.earlier.has(path) && !this.sinks.has(file))
        this.sinks.set(file, {
          stream: createRejectsFile(path),
          format: this.specs.get(file)!.format,
          count: 0,
        });
    }
    for (const sink of this.sinks.values()) {
      if (sink.format === 'json') sink.stream.write(sink.count === 0 ? '[]\n' : '\n]\n');
      await closeStream(sink.stream);
    }
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
    return closeStream(this.stream);
  }
}

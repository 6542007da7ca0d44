import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { csvLine } from '../convert/csvLine.js';
import { neutraliseFormula } from '../convert/formulaCells.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import type { InputSpec } from '../readers/openInput.js';
import type { RawRecord } from '../readers/sourceRecord.js';
import { isRecord } from '../schema/checks.js';

export type Redact = (text: string) => string;

function open(path: string, flags: 'w' | 'a' = 'w'): WriteStream {
  const stream = createWriteStream(path, { flags, mode: 0o600 });
  stream.on('error', () => {}); // reported by close()
  return stream;
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', (cause) => reject(new UsageError(`cannot write ${String(stream.path)}: ${cause.message}`)));
    stream.end(() => resolve());
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
 * the file; several: PATH is a folder with one file per input.
 */
export class RejectsWriter {
  private readonly sinks = new Map<string, RejectsSink>();
  private readonly specs: Map<string, InputSpec>;

  constructor(private readonly target: string, inputs: readonly InputSpec[], private readonly redact: Redact) {
    this.specs = new Map(inputs.map((spec) => [spec.name, spec]));
    if (this.specs.size > 1) mkdirSync(target, { recursive: true });
  }

  private sink(file: string): RejectsSink | undefined {
    let sink = this.sinks.get(file);
    if (sink) return sink;
    const spec = this.specs.get(file);
    if (!spec) return undefined;
    const name = basename(spec.name === '-' ? `stdin.${spec.format}` : spec.name).replace(/\.gz$/i, '');
    const path = this.specs.size > 1 ? join(this.target, name) : this.target;
    sink = { stream: open(path), format: spec.format, count: 0 };
    this.sinks.set(file, sink);
    return sink;
  }

  write(file: string, raw: RawRecord | undefined, reason: string): void {
    const sink = this.sink(file);
    if (!sink || !raw) return;
    // The key never reaches a file, not even where an input happens to contain it.
    const safe = this.redact(reason);
    if (raw.kind === 'csv') {
      if (sink.last && sink.last.length === raw.cells.length && sink.last.every((cell, i) => cell === raw.cells[i])) return;
      sink.last = raw.cells;
      // Formula-like cells get a ' in front (a spreadsheet must not run them); reading the file back removes it.
      if (sink.count === 0) sink.stream.write(this.redact(`${csvLine([...raw.header, REASON_FIELD].map(neutraliseFormula))}\n`));
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
      const line = this.redact(JSON.stringify(isRecord(value) ? { ...value, [REASON_FIELD]: safe } : { [REASON_FIELD]: safe, collect_raw: raw.text }));
      if (sink.format === 'json') sink.stream.write(`${sink.count === 0 ? '[\n' : ',\n'}${line}`);
      else sink.stream.write(`${line}\n`);
    }
    sink.count++;
  }

  async close(): Promise<void> {
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

  constructor(path: string, private readonly redact: Redact) {
    this.stream = open(path, 'a');
  }

  write(line: Record<string, unknown>): void {
    this.stream.write(`${this.redact(JSON.stringify(line))}\n`);
  }

  close(): Promise<void> {
    return closeStream(this.stream);
  }
}

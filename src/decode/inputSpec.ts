import type { CsvDialect } from '../mapping/mappingSpec.js';
import type { InputFormat } from './formatName.js';

/** An input as named on the command line, with how to read it. */
export interface InputSpec {
  /** The path as given, `-` for standard input. */
  name: string;
  /** Where to read it when that is not `name`: standard input saved to a file, to be read twice. */
  path?: string;
  format: InputFormat;
  gzip: boolean;
  /** A CSV file's delimiter, quote and encoding, when not `,`, `"` and UTF-8 (a mapping's `csv:`, `--delimiter`). */
  csv?: CsvDialect;
  /** Records already in memory (typed on the command line): read from here, not from a file. */
  records?: readonly unknown[];
}

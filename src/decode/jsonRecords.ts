import { error, type Issue } from '../core/issue.js';
import { JsonSplitter, type SplitEvent, type SplitResume } from './jsonSplitter.js';
import { parsedJsonText } from './parsedJsonText.js';
import { tooDeep, tooLarge } from './limitIssues.js';
import { defaultLimits, type ReadLimits } from './sourceRecord.js';
import type { SourceRecord } from './sourceRecord.js';

function parseElement(text: string): { value: unknown } | { message: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (cause) {
    return { message: cause instanceof Error ? cause.message : String(cause) };
  }
}

/**
 * One element of a JSON array read: its value (absent: not JSON, or too deep), its issues, and whether its
 * text is kept as raw.
 */
export interface JsonElementRead {
  value?: unknown;
  issues: Issue[];
  keepsText: boolean;
}

/** Reads the text of one element (a rejects file's reasons field dropped), on whichever thread decodes it. */
export function readJsonElement(text: string): JsonElementRead {
  const parsed = parseElement(text);
  if ('value' in parsed) {
    const read = parsedJsonText(text, parsed.value);
    return 'tooDeep' in read ? { issues: [tooDeep()], keepsText: false } : { ...read, keepsText: true };
  }
  return {
    issues: [
      error('invalid-json', '', `the record is not valid JSON: ${parsed.message}`, {
        hint: 'check quotes, commas and brackets in this record',
      }),
    ],
    keepsText: true,
  };
}

/** What the splitter found, read: its line, value (absent: not read), issues, and text when it is the raw form. */
export interface JsonRead {
  line: number;
  value?: unknown;
  issues: Issue[];
  text?: string;
}

/** Reads what the splitter found (an element, or a problem of the document), on whichever thread decodes. */
export function readSplitEvent(event: SplitEvent, limits: ReadLimits): JsonRead {
  if ('problem' in event) return { line: event.line, issues: [event.problem] };
  const { line, tooLarge: size, text } = event.element;
  if (size !== undefined) return { line, issues: [tooLarge(size, limits)] };
  const read = readJsonElement(text);
  const kept = read.keepsText ? { text } : {};
  return read.value === undefined
    ? { line, issues: read.issues, ...kept }
    : { line, value: read.value, issues: read.issues, ...kept };
}

/**
 * Records of a JSON input (one object, or an array of objects), streamed; `from`: the rest of a
 * document cut between its elements (jsonPieces.ts), its first record at `from.index`.
 */
export async function* readJsonRecords(
  text: AsyncIterable<string>,
  file: string,
  limits: ReadLimits = defaultLimits,
  from?: SplitResume & { index: number },
): AsyncGenerator<SourceRecord> {
  const splitter = new JsonSplitter(limits.maxRecordBytes, from);
  let index = from?.index ?? 0;
  const toRecords = function* (events: SplitEvent[]): Generator<SourceRecord> {
    for (const event of events) {
      const { line, value, issues, text: raw } = readSplitEvent(event, limits);
      const record: SourceRecord = { file, index: index++, line, issues };
      if (value !== undefined) record.value = value;
      if (raw !== undefined) record.raw = { kind: 'text', text: raw };
      yield record;
    }
  };
  for await (const chunk of text) yield* toRecords(splitter.push(chunk));
  yield* toRecords(splitter.end());
}

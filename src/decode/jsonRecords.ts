import { error, type Issue } from '../core/issue.js';
import { JsonSplitter, type SplitEvent } from './jsonSplitter.js';
import { inexactNumbers } from './inexactNumbers.js';
import { withoutReason } from './withoutReason.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
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

/** One element of a JSON array read: its value (absent: not JSON, or too deep), its issues, and whether its text is kept as raw. */
export interface JsonElementRead {
  value?: unknown;
  issues: Issue[];
  keepsText: boolean;
}

/** Reads the text of one element (a rejects file's reasons field dropped), on whichever thread decodes it. */
export function readJsonElement(text: string): JsonElementRead {
  const parsed = parseElement(text);
  if ('value' in parsed && nestsDeeperThan(parsed.value, MAX_DEPTH)) return { issues: [tooDeep()], keepsText: false };
  return 'value' in parsed
    ? { value: withoutReason(parsed.value), issues: inexactNumbers(text), keepsText: true }
    : { issues: [error('invalid-json', '', `the record is not valid JSON: ${parsed.message}`, { hint: 'check quotes, commas and brackets in this record' })], keepsText: true };
}

/** Records of a JSON input (one object, or an array of objects), streamed. */
export async function* readJsonRecords(text: AsyncIterable<string>, file: string, limits: ReadLimits = defaultLimits): AsyncGenerator<SourceRecord> {
  const splitter = new JsonSplitter(limits.maxRecordBytes);
  let index = 0;
  const toRecords = function* (events: SplitEvent[]): Generator<SourceRecord> {
    for (const event of events) {
      if ('problem' in event) {
        yield { file, index: index++, line: event.line, issues: [event.problem] };
        continue;
      }
      if (event.element.tooLarge !== undefined) {
        yield { file, index: index++, line: event.element.line, issues: [tooLarge(event.element.tooLarge, limits)] };
        continue;
      }
      const read = readJsonElement(event.element.text);
      const at = { file, index: index++, line: event.element.line, issues: read.issues };
      const raw = read.keepsText ? { raw: { kind: 'text', text: event.element.text } as const } : {};
      yield read.value === undefined ? { ...at, ...raw } : { ...at, value: read.value, ...raw };
    }
  };
  for await (const chunk of text) yield* toRecords(splitter.push(chunk));
  yield* toRecords(splitter.end());
}

import { error } from '../core/issue.js';
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
      const parsed = parseElement(event.element.text);
      if ('value' in parsed && nestsDeeperThan(parsed.value, MAX_DEPTH)) {
        yield { file, index: index++, line: event.element.line, issues: [tooDeep()] };
        continue;
      }
      const at = { file, index: index++, line: event.element.line, raw: { kind: 'text', text: event.element.text } as const };
      yield 'value' in parsed
        ? { ...at, value: withoutReason(parsed.value), issues: inexactNumbers(event.element.text) }
        : { ...at, issues: [error('invalid-json', '', `the record is not valid JSON: ${parsed.message}`, { hint: 'check quotes, commas and brackets in this record' })] };
    }
  };
  for await (const chunk of text) yield* toRecords(splitter.push(chunk));
  yield* toRecords(splitter.end());
}

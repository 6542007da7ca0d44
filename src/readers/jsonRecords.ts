import { error } from '../core/issue.js';
import { JsonSplitter, type SplitEvent } from './jsonSplitter.js';
import { withoutReason } from './withoutReason.js';
import type { SourceRecord } from './sourceRecord.js';

function parseElement(text: string): { value: unknown } | { message: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (cause) {
    return { message: cause instanceof Error ? cause.message : String(cause) };
  }
}

/** Records of a JSON input (one object, or an array of objects), streamed. */
export async function* readJsonRecords(text: AsyncIterable<string>, file: string): AsyncGenerator<SourceRecord> {
  const splitter = new JsonSplitter();
  let index = 0;
  const toRecords = function* (events: SplitEvent[]): Generator<SourceRecord> {
    for (const event of events) {
      if ('problem' in event) {
        yield { file, index: index++, line: event.line, issues: [event.problem] };
        continue;
      }
      const parsed = parseElement(event.element.text);
      const at = { file, index: index++, line: event.element.line, raw: { kind: 'text', text: event.element.text } as const };
      yield 'value' in parsed
        ? { ...at, value: withoutReason(parsed.value), issues: [] }
        : { ...at, issues: [error('invalid-json', '', `the record is not valid JSON: ${parsed.message}`, { hint: 'check quotes, commas and brackets in this record' })] };
    }
  };
  for await (const chunk of text) yield* toRecords(splitter.push(chunk));
  yield* toRecords(splitter.end());
}

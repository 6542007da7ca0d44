import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { error } from '../core/issue.js';
import { withoutReason } from './withoutReason.js';
import type { SourceRecord } from './sourceRecord.js';

/** Records of an NDJSON input: one JSON object per line, blank lines skipped. */
export async function* readNdjsonRecords(text: AsyncIterable<string>, file: string): AsyncGenerator<SourceRecord> {
  const lines = createInterface({ input: Readable.from(text), crlfDelay: Infinity });
  let line = 0;
  let index = 0;
  for await (const raw of lines) {
    line++;
    const content = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (content.trim() === '') continue;
    try {
      yield { file, index: index++, line, value: withoutReason(JSON.parse(content)), issues: [], raw: { kind: 'text', text: content } };
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      yield { file, index: index - 1, line, raw: { kind: 'text', text: content }, issues: [error('invalid-json', '', `the line is not valid JSON: ${message}`, { hint: 'each line must hold one complete JSON object' })] };
    }
  }
}

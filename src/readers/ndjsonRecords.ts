import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { error } from '../core/issue.js';
import { withoutReason } from './withoutReason.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { tooDeep, tooLarge } from './limitIssues.js';
import { defaultLimits, type ReadLimits } from './sourceRecord.js';
import type { SourceRecord } from './sourceRecord.js';

/** Records of an NDJSON input: one JSON object per line, blank lines skipped. */
export async function* readNdjsonRecords(text: AsyncIterable<string>, file: string, limits: ReadLimits = defaultLimits): AsyncGenerator<SourceRecord> {
  const lines = createInterface({ input: Readable.from(text), crlfDelay: Infinity });
  let line = 0;
  let index = 0;
  for await (const raw of lines) {
    line++;
    const content = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (content.trim() === '') continue;
    if (content.length > limits.maxRecordBytes) {
      yield { file, index: index++, line, issues: [tooLarge(content.length, limits)] };
      continue;
    }
    try {
      const value = JSON.parse(content) as unknown;
      if (nestsDeeperThan(value, MAX_DEPTH)) {
        yield { file, index: index++, line, raw: { kind: 'text', text: content }, issues: [tooDeep()] };
        continue;
      }
      yield { file, index: index++, line, value: withoutReason(value), issues: [], raw: { kind: 'text', text: content } };
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      yield { file, index: index++, line, raw: { kind: 'text', text: content }, issues: [error('invalid-json', '', `the line is not valid JSON: ${message}`, { hint: 'each line must hold one complete JSON object' })] };
    }
  }
}

import { error } from '../core/issue.js';
import { boundedLines } from './boundedLines.js';
import { inexactNumbers } from './inexactNumbers.js';
import { withoutReason } from './withoutReason.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { tooDeep, tooLarge } from './limitIssues.js';
import { defaultLimits, type ReadLimits } from './sourceRecord.js';
import type { SourceRecord } from './sourceRecord.js';

/** Records of an NDJSON input: one JSON object per line, blank lines skipped. */
export async function* readNdjsonRecords(text: AsyncIterable<string>, file: string, limits: ReadLimits = defaultLimits): AsyncGenerator<SourceRecord> {
  let line = 0;
  let index = 0;
  for await (const read of boundedLines(text, limits.maxRecordBytes)) {
    line++;
    if ('tooLong' in read) {
      yield { file, index: index++, line, issues: [tooLarge(read.tooLong, limits)] };
      continue;
    }
    const content = line === 1 ? read.text.replace(/^\uFEFF/, '') : read.text;
    if (content.trim() === '') continue;
    try {
      const value = JSON.parse(content) as unknown;
      if (nestsDeeperThan(value, MAX_DEPTH)) {
        yield { file, index: index++, line, raw: { kind: 'text', text: content }, issues: [tooDeep()] };
        continue;
      }
      yield { file, index: index++, line, value: withoutReason(value), issues: inexactNumbers(content), raw: { kind: 'text', text: content } };
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      yield { file, index: index++, line, raw: { kind: 'text', text: content }, issues: [error('invalid-json', '', `the line is not valid JSON: ${message}`, { hint: 'each line must hold one complete JSON object' })] };
    }
  }
}

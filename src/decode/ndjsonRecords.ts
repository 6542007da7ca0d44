import { boundedLines } from './boundedLines.js';
import { readNdjsonLine } from './ndjsonLine.js';
import { tooLarge } from './limitIssues.js';
import { defaultLimits, type ReadLimits } from './sourceRecord.js';
import type { SourceRecord } from './sourceRecord.js';

/** Where a stream of NDJSON lines starts in its file: the line before its first, and the records before it. */
export interface NdjsonStart {
  line: number;
  index: number;
}

/** Records of an NDJSON input: one JSON object per line, blank lines skipped. */
export async function* readNdjsonRecords(
  text: AsyncIterable<string>,
  file: string,
  limits: ReadLimits = defaultLimits,
  start: NdjsonStart = { line: 0, index: 0 },
): AsyncGenerator<SourceRecord> {
  let { line, index } = start;
  for await (const read of boundedLines(text, limits.maxRecordBytes)) {
    line++;
    if ('tooLong' in read) {
      yield { file, index: index++, line, issues: [tooLarge(read.tooLong, limits)] };
      continue;
    }
    const content = line === 1 ? read.text.replace(/^\uFEFF/, '') : read.text;
    if (content.trim() === '') continue;
    const { value, issues, text: raw } = readNdjsonLine(content);
    yield {
      file,
      index: index++,
      line,
      issues,
      raw: { kind: 'text', text: raw },
      ...(value !== undefined ? { value } : {}),
    };
  }
}

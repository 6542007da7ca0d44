import { error, type Issue } from '../core/issue.js';
import { MAX_DEPTH } from '../core/depth.js';
import type { ReadLimits } from './sourceRecord.js';

export const tooLarge = (size: number, limits: ReadLimits): Issue =>
  error(
    'record-too-large',
    '',
    `the record is ${size.toLocaleString('en-US')} characters long, over the limit of ` +
      `${limits.maxRecordBytes.toLocaleString('en-US')}`,
    {
      hint: 'check the file for a missing line break or bracket, or raise --max-record-bytes',
    },
  );

export const tooDeep = (): Issue =>
  error('too-deep', '', `the record nests more than ${MAX_DEPTH} levels deep`, {
    hint: 'records of the service nest a few levels; check the file for runaway brackets',
  });

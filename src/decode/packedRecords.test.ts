import { describe, expect, it } from 'vitest';
import { error } from '../core/issue.js';
import type { CheckedRecord } from '../check/checkRecord.js';
import { packRecords } from './packedRecords.js';
import { piecesRecords, type PieceRecord } from './pieceRecords.js';

const checked = (extra: Partial<CheckedRecord>): CheckedRecord => ({
  issues: [],
  orderId: '',
  facts: null,
  hash: '',
  coverage: 0,
  ...extra,
});

describe('packed records', () => {
  it('cross a thread boundary and come back as the records they were, each field in place', () => {
    const bad = [error('invalid-type', 'total_paid_value', 'not a number')];
    const records: PieceRecord[] = [
      { line: 1, checked: checked({ orderId: 'A', coverage: 1 << 31, flow: 65 }) },
      { line: 2, checked: checked({ issues: bad, orderId: 'B', facts: { kind: 'x' } as never, hash: 'h1' }) },
      { line: 4, checked: checked({}), value: { id: 'C' }, text: '{"id":"C"}' },
      { line: 5, checked: checked({ issues: bad }), text: null },
    ];
    const packed = structuredClone(packRecords(records));
    const back = [...piecesRecords({ packed, lineCount: 5 }, 'f.ndjson', 11, 100)];
    expect(back).toEqual([
      {
        file: 'f.ndjson',
        index: 100,
        line: 11,
        issues: [],
        checked: checked({ orderId: 'A', coverage: 1 << 31, flow: 65 }),
      },
      {
        file: 'f.ndjson',
        index: 101,
        line: 12,
        issues: bad,
        checked: checked({ issues: bad, orderId: 'B', facts: { kind: 'x' } as never, hash: 'h1' }),
      },
      {
        file: 'f.ndjson',
        index: 102,
        line: 14,
        issues: [],
        checked: checked({}),
        value: { id: 'C' },
        raw: { kind: 'text', text: '{"id":"C"}' },
      },
      { file: 'f.ndjson', index: 103, line: 15, issues: bad, checked: checked({ issues: bad }) },
    ]);
  });
});

import { error, type Issue } from '../core/issue.js';

export const columnCountIssue = (cells: number, width: number): Issue =>
  error('csv-column-count', '', `the row has ${cells} cells but the header has ${width} columns`, {
    hint: 'check for an unquoted comma or a missing cell in this row',
  });

export const conflictIssue = (path: string): Issue =>
  error(
    'csv-header-conflict',
    path,
    `the column ${path} conflicts with another column that fills the same field`,
    {
      hint: 'keep either the whole field or its dotted parts, not both',
    },
  );

export const sparseIssue = (): Issue =>
  error(
    'sparse-array',
    '',
    'numbered columns skip a position (for example payments.1.* filled while payments.0.* is empty)',
    {
      hint: 'fill numbered columns from 0 without gaps',
    },
  );

export function hasHoles(array: readonly unknown[]): boolean {
  for (let i = 0; i < array.length; i++) if (!(i in array)) return true;
  return false;
}

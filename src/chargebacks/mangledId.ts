import { error, type Issue } from '../core/issue.js';

/** The fix for a damaged id: the report must be exported again (A.0.6). */
export const mangledHint =
  're-export the report as text (or open it in a spreadsheet with the id columns formatted as Text), then run it again';

/** One key of a row as written, with the column it came from. */
export interface WrittenKey {
  field: string;
  column: string;
  value: string;
  /** The value was a CSV cell: the `.0` rule applies. */
  csv: boolean;
}

const scientific = /^[+-]?\d+[.,]\d+[eE][+-]?\d+$|^[+-]?\d+[eE][+-]?\d+$/;
const trailingZero = /^\d+\.00?$/;

/** Why a key looks like a number a spreadsheet rewrote, or undefined (source-files.md A.0.6). */
export function mangledReason(
  key: WrittenKey,
  network: string | undefined,
  width?: number,
): string | undefined {
  const value = key.value.trim();
  if (scientific.test(value)) return 'looks like a number a spreadsheet rewrote in scientific notation';
  if (key.csv && trailingZero.test(value)) return 'ends in .0 as a number a spreadsheet rewrote';
  if (key.field === 'arn' && (network === 'visa' || network === 'mastercard') && !/^\d{23}$/.test(value))
    return `is not the 23 digits of a ${network === 'visa' ? 'Visa' : 'Mastercard'} ARN`;
  if (width !== undefined && /^\d+$/.test(value) && value.length < width)
    return `has ${value.length} digits where the format writes ${width}: it lost its leading zeros`;
  return undefined;
}

/** The `mangled-id` issues of a row's keys (error: the row is invalid and never matched). */
export function mangledIds(
  keys: readonly WrittenKey[],
  network: string | undefined,
  widths: ReadonlyMap<string, number> = new Map(),
): Issue[] {
  return keys.flatMap((key) => {
    const why = mangledReason(key, network, widths.get(key.field));
    return why === undefined
      ? []
      : [
          error('mangled-id', key.field, `${key.column} ${key.value} ${why}`, {
            value: key.value,
            hint: mangledHint,
          }),
        ];
  });
}

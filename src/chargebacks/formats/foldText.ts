/**
 * A header cell as A.0.1 compares it: no byte-order mark, quotes or outer spaces, inner runs of spaces as
 * one, case folded.
 */
export function headerKey(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** A row-type value as A.0.4 compares it: case folded, accents dropped, no spaces, `_`, `-`, `.` or `/`. */
export function typeKey(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[\s_\-./]+/g, '');
}

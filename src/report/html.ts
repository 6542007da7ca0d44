/** The characters HTML gives a meaning to, in text and in quoted attribute values alike. */
const SPECIAL: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Any text as HTML text or a quoted attribute value: every character HTML gives a meaning to
 * is escaped, and control characters (which no page should carry) are shown as U+FFFD.
 */
export function escapeHtml(text: unknown): string {
  return (
    String(text)
      .replace(/[&<>"']/g, (char) => SPECIAL[char]!)
      // eslint-disable-next-line no-control-regex -- these are the characters it replaces
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
  );
}

/** A count as people read it: 1,234,567. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** A share as a percentage with one decimal (0 of 0 is 0 %). */
export const percent = (part: number, whole: number): string =>
  `${whole === 0 ? '0' : ((100 * part) / whole).toFixed(part === whole || part === 0 ? 0 : 1)} %`;

/** Cut long input text for display: the whole text stays in the title (the page's size stays bounded). */
export function shortText(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A table cell of any text, escaped. */
export const cell = (text: unknown, className?: string): string =>
  `<td${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</td>`;

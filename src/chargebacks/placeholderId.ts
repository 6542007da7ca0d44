/** What exports write where they have no id: read as no id, never as one id shared by every such row. */
const PLACEHOLDER = /^(?:n\/?a|none|null|nil|unknown|undefined|-+|\?+|0+)$/i;

/** Whether an acquirer id is no id: empty, or a placeholder (`N/A`, `-`, `null`, `0`). */
export function isPlaceholderId(id: string): boolean {
  const trimmed = id.trim();
  return trimmed === '' || PLACEHOLDER.test(trimmed);
}

/** The one note of a run that met placeholders: how many, read as no id. */
export function placeholderNote(where: string, count: number): string {
  return (
    `${count.toLocaleString('en-US')} ${where} had a placeholder or empty acquirer_id (N/A, -, null, ` +
    `0): read as no acquirer id`
  );
}

/** One CSV cell, quoted when it holds a comma, a quote or a line break. */
export const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One CSV line of cells, without the line break. */
export const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(',');

/** The entries an orders file feeds beside its orders: its status updates and its deliveries. */
import { because, quote, type SampledFile } from './proposeCells.js';
import { columnSource, datetimeLine, type Known } from './proposeLines.js';
import { STATUSES, statusValues } from './proposeStatus.js';
import type { EntryPlan } from './proposalText.js';

/** The status entry: the sample's words mapped to the service's statuses, the words that mean none yet filtered out. */
export function statusEntry(
  file: SampledFile,
  column: Known,
  id: string,
  when?: EntryPlan['when'],
): EntryPlan {
  const { values, none, unknown } = statusValues(column.cells);
  const map = [...values, ...unknown.map((word) => [word, '?'] as const)]
    .map(([word, status]) => `${quote(word)}: ${quote(status)}`)
    .join(', ');
  const notes = unknown.length
    ? [`${unknown.map(quote).join(', ')}: no status known for it: map each to one of ${STATUSES.join(', ')}`]
    : [];
  const notIn = none.length
    ? {
        text: `{ column: ${quote(column.header)}, not-in: [${none.map(quote).join(', ')}] }`,
        reason: `${none.join(', ')}: no status yet`,
      }
    : undefined;
  return {
    endpoint: 'status',
    from: file.file,
    ...(when && notIn
      ? { when: { text: `[${when.text}, ${notIn.text}]`, reason: `${when.reason}; ${notIn.reason}` } }
      : (when ?? notIn)
        ? { when: (when ?? notIn)! }
        : {}),
    fields: [
      { target: 'id', source: quote(id), reason: "the order's id" },
      {
        target: 'status',
        source: `{ column: ${quote(column.header)}, values: { ${map} } }`,
        reason: because(column.header, column.cells),
      },
    ],
    lists: [],
    notes,
  };
}

/** The delivery entry: an order's delivery time, one delivery per order. */
export function deliveryEntry(file: SampledFile, column: Known, id: string): EntryPlan {
  return {
    endpoint: 'delivery',
    from: file.file,
    when: { text: `{ column: ${quote(column.header)}, present: true }`, reason: 'delivered orders only' },
    fields: [
      {
        target: 'id',
        source: `{ template: ${JSON.stringify(`{${id}}-1`)} }`,
        reason: "one delivery per order, named after the order's id",
      },
      { target: 'order_id', source: quote(id), reason: "the order's id" },
      datetimeLine('delivery_datetime', column, columnSource(column.header)),
    ],
    lists: [],
    notes: [],
  };
}

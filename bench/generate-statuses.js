// Writes deterministic status updates for the orders of generate-orders.js, one per order: as CSV or as NDJSON.
import { writeCsv, writeLines } from './write-csv.js';

const STATUSES = ['approved', 'approved', 'approved', 'declined', 'cancelled', 'pending'];
const status = (n) => STATUSES[n % STATUSES.length];
const reason = (n) => (n % 7 === 0 ? 'reviewed' : '');

export function generateStatuses(path, rows) {
  return writeCsv(path, 'id,status,status_reason', rows, (n) => `ORD-${n},${status(n)},${reason(n)}`);
}

export function generateStatusesNdjson(path, rows) {
  return writeLines(path, rows, (n) =>
    JSON.stringify({ id: `ORD-${n}`, status: status(n), ...(reason(n) ? { status_reason: reason(n) } : {}) }),
  );
}

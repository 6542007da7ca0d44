// Writes a deterministic status-update CSV for the orders of generate-orders.js: one update per order.
import { writeCsv } from './write-csv.js';

const STATUSES = ['approved', 'approved', 'approved', 'declined', 'cancelled', 'pending'];

export function generateStatuses(path, rows) {
  return writeCsv(path, 'id,status,status_reason', rows, (n) => `ORD-${n},${STATUSES[n % STATUSES.length]},${n % 7 === 0 ? 'reviewed' : ''}`);
}

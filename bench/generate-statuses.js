// Writes a deterministic status-update CSV for the orders of generate-orders.js: one update per order.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const STATUSES = ['approved', 'approved', 'approved', 'declined', 'cancelled', 'pending'];

export async function generateStatuses(path, rows) {
  const out = createWriteStream(path);
  out.write('id,status,status_reason\n');
  let batch = [];
  for (let n = 0; n < rows; n++) {
    batch.push(`ORD-${n},${STATUSES[n % STATUSES.length]},${n % 7 === 0 ? 'reviewed' : ''}`);
    if (batch.length === 1000) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join('\n')}\n`);
  out.end();
  await once(out, 'finish');
}

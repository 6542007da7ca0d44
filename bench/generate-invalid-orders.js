// Writes a deterministic orders CSV in which every row is invalid (three issues each): what a report holds at volume.
import { writeCsv } from './write-csv.js';

const HEADER =
  'id,creation_datetime,total_paid_value,user.id,payments.0.id,payments.0.installments,payments.0.card.expiration_date';

export function generateInvalidOrders(path, rows) {
  return writeCsv(
    path,
    HEADER,
    rows,
    (n) => `ORD-${n},2024-03-01T10:00:00Z,"10,50",CUST-${n},PAY-${n},0,13/2027`,
  );
}

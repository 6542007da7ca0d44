import { textField } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import type { KeyFields } from './rowKeys.js';

/**
 * One payment of an exported order (or the order alone), with the cascade's keys it carries (source-files.md
 * A.0.8).
 */
export interface ExportedPayment extends KeyFields {
  order_id: string;
  payment_id: string | null;
}

/** A cell as text: exports write numbers and codes either way. */
const cell = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : textField(value);

const amountOf = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The keys the flat columns or a payment's `custom_data` name alike. */
function extraKeys(
  from: Record<string, unknown>,
): Pick<KeyFields, 'arn' | 'authorization_code' | 'nsu' | 'terminal_id' | 'sale_date'> {
  return {
    arn: cell(from.arn),
    authorization_code: cell(from.authorization_code),
    nsu: cell(from.nsu),
    terminal_id: cell(from.terminal_id),
    sale_date: cell(from.sale_date),
  };
}

/**
 * The payments of one exported record: collect's flat columns (`order_id`, `payment_id`,
 * `acquirer_id`, `arn`, `authorization_code`, `nsu`, `terminal_id`, `card_last_four`,
 * `sale_date`, `amount`), or an order in the service's shape (`id`, `creation_datetime`,
 * `payments[]` with the ARN and the authorisation data in `custom_data`). An order with no
 * payment is one entry of its id alone.
 */
export function exportedPayments(value: unknown): ExportedPayment[] {
  if (!isRecord(value)) return [];
  const flat = textField(value.order_id);
  if (flat !== undefined && !Array.isArray(value.payments))
    return [
      {
        order_id: flat,
        payment_id: cell(value.payment_id) ?? null,
        acquirer_id: cell(value.acquirer_id),
        card_last_four: cell(value.card_last_four),
        amount: amountOf(value.amount),
        ...extraKeys(value),
      },
    ];
  const orderId = textField(value.id) ?? flat;
  if (orderId === undefined) return [];
  const payments = Array.isArray(value.payments) ? value.payments.filter(isRecord) : [];
  if (payments.length === 0) return [{ order_id: orderId, payment_id: null }];
  const created = cell(value.sale_date) ?? cell(value.creation_datetime);
  return payments.map((payment) => {
    const custom = isRecord(payment.custom_data) ? extraKeys(payment.custom_data) : {};
    const card = isRecord(payment.card) ? cell(payment.card.last_four_digits) : undefined;
    // An order of one payment with no value: the payment is the order's total (A.0.7).
    const amount =
      amountOf(payment.value) ?? (payments.length === 1 ? amountOf(value.total_paid_value) : undefined);
    return {
      order_id: orderId,
      payment_id: cell(payment.id) ?? null,
      acquirer_id: cell(payment.acquirer_id),
      card_last_four: card,
      amount,
      ...custom,
      sale_date: custom.sale_date ?? created,
    };
  });
}

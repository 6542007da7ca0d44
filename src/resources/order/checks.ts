import { warning, type Issue } from '../../core/issue.js';
import { isRecord } from '../../schema/checks.js';
import { parseDatetime } from '../../schema/datetime.js';
import type { ValidationContext } from '../resource.js';

const EXPIRATION = /^(0[1-9]|1[0-2])\/([0-9]{4}|[0-9]{2})$/;

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function phoneHints(owner: unknown, prefix: string): Issue[] {
  if (!isRecord(owner)) return [];
  const issues: Issue[] = [];
  for (const field of ['phone_number', 'phone_country_code']) {
    const value = owner[field];
    if (typeof value === 'string' && value !== '' && !/^[0-9]+$/.test(value)) {
      issues.push(
        warning('phone-not-digits', `${prefix}.${field}`, `${field} should contain digits only`, {
          value,
          hint: `remove everything but the digits: "${value.replace(/\D/g, '')}"`,
        }),
      );
    }
  }
  return issues;
}

function emailHint(owner: unknown, prefix: string): Issue[] {
  if (!isRecord(owner) || typeof owner.email !== 'string' || owner.email.includes('@')) return [];
  return [
    warning('email-without-at', `${prefix}.email`, 'email has no "@"', {
      value: owner.email,
      hint: 'check the e-mail address',
    }),
  ];
}

function paymentTotalHint(order: Record<string, unknown>): Issue[] {
  const payments = list(order.payments);
  if (typeof order.total_paid_value !== 'number' || payments.length === 0) return [];
  if (!payments.every((p) => typeof p.value === 'number')) return [];
  const sum = payments.reduce((total, p) => total + (p.value as number), 0);
  if (Math.abs(sum - order.total_paid_value) <= 0.01) return [];
  return [
    warning(
      'paid-value-mismatch',
      'total_paid_value',
      `total_paid_value ${order.total_paid_value} differs from the sum of payments[].value (` +
        `${Math.round(sum * 100) / 100})`,
      { value: order.total_paid_value, hint: 'make total_paid_value the sum of the payment values' },
    ),
  ];
}

function cardExpiryHints(order: Record<string, unknown>, created: number | null): Issue[] {
  if (created === null) return [];
  const createdDate = new Date(created);
  const createdMonth = createdDate.getUTCFullYear() * 12 + createdDate.getUTCMonth();
  const issues: Issue[] = [];
  list(order.payments).forEach((payment, position) => {
    const card = payment.card;
    if (!isRecord(card) || typeof card.expiration_date !== 'string') return;
    const match = EXPIRATION.exec(card.expiration_date);
    if (!match) return;
    const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    if (year * 12 + Number(match[1]) - 1 < createdMonth) {
      issues.push(
        warning(
          'card-expired',
          `payments.${position}.card.expiration_date`,
          'the card expired before the order was created',
          { value: card.expiration_date, hint: 'check the expiration date or creation_datetime' },
        ),
      );
    }
  });
  return issues;
}

/** The "(warning)" rules of docs/payloads.md for the order creation body. */
export function orderChecks(order: Record<string, unknown>, context: ValidationContext): Issue[] {
  const issues: Issue[] = [];
  const created = typeof order.creation_datetime === 'string' ? parseDatetime(order.creation_datetime) : null;
  if (order.creation_datetime === undefined) {
    issues.push(
      warning('missing-recommended', 'creation_datetime', 'creation_datetime is missing', {
        hint: 'add when the order was placed, e.g. "2024-03-01T14:30:00Z"',
      }),
    );
  } else if (created !== null && created > context.now.getTime()) {
    issues.push(
      warning('future-datetime', 'creation_datetime', 'creation_datetime is later than now', {
        value: order.creation_datetime,
        hint: 'check the clock or time zone of the export (times are UTC)',
      }),
    );
  }
  if (order.total_paid_value === undefined) {
    issues.push(
      warning('missing-recommended', 'total_paid_value', 'total_paid_value is missing', {
        hint: 'add the amount the customer paid',
      }),
    );
  }
  if (order.user === undefined) {
    issues.push(
      warning('missing-recommended', 'user', 'user (the customer) is missing', {
        hint: 'add the customer, at least user.id',
      }),
    );
  } else if (isRecord(order.user) && order.user.id === undefined) {
    issues.push(
      warning(
        'missing-recommended',
        'user.id',
        "user.id is missing: the service cannot link this customer's orders",
        { hint: "add the customer's id on your platform" },
      ),
    );
  }
  issues.push(...phoneHints(order.user, 'user'), ...emailHint(order.user, 'user'));
  list(order.items).forEach((item, position) => {
    const seller = isRecord(item.product) ? item.product.seller : undefined;
    issues.push(
      ...phoneHints(seller, `items.${position}.product.seller`),
      ...emailHint(seller, `items.${position}.product.seller`),
    );
  });
  issues.push(...paymentTotalHint(order), ...cardExpiryHints(order, created));
  return issues;
}

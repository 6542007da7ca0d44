import { describe, expect, it } from 'vitest';
import { errorsOf, problems } from '../../../test/helpers/problems.js';
import { orderResource } from './index.js';

/** The smallest order that raises no warning. */
const order = {
  id: 'O1',
  creation_datetime: '2024-03-01T14:30:00Z',
  total_paid_value: 10,
  user: { id: 'U1' },
};
const address = { street_name: 'Rua A', street_number: '1', city: 'Rio', state: 'RJ', country: 'BR' };

describe('order creation: top level', () => {
  it('accepts the example and the smallest complete order', () => {
    expect(problems(orderResource, orderResource.example)).toEqual([]);
    expect(problems(orderResource, order)).toEqual([]);
  });
  it('requires a non-empty id', () => {
    expect(errorsOf(orderResource, { ...order, id: undefined })).toEqual(['error required @id']);
    expect(errorsOf(orderResource, { ...order, id: '' })).toEqual(['error empty-value @id']);
  });
  it('types evaluate, status, currency, coupons and documents', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        evaluate: 'true',
        status: 'shipped',
        currency: 'brl',
        coupon_names: 'A|B',
        tax_invoice_document_type: 'vat',
        tax_invoice_document: 123,
      }),
    ).toEqual([
      'error invalid-type @evaluate',
      'error invalid-enum @status',
      'error invalid-format @currency',
      'error invalid-type @coupon_names',
      'error invalid-enum @tax_invoice_document_type',
      'error invalid-type @tax_invoice_document',
    ]);
  });
  it('wants every money field a finite non-negative JSON number', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        total_paid_value: '10.5',
        total_gross_value: -1,
        discount_value: Number.POSITIVE_INFINITY,
        shipping_value: null,
        tip_value: 1,
      }),
    ).toEqual([
      'error invalid-type @total_paid_value',
      'error out-of-range @total_gross_value',
      'error invalid-type @discount_value',
      'error invalid-type @shipping_value',
    ]);
  });
  it('checks creation_datetime format and calendar', () => {
    expect(errorsOf(orderResource, { ...order, creation_datetime: '2024-02-30T10:00:00Z' })).toEqual([
      'error invalid-datetime @creation_datetime',
    ]);
    expect(errorsOf(orderResource, { ...order, creation_datetime: '01/03/2024' })).toEqual([
      'error invalid-datetime @creation_datetime',
    ]);
  });
  it('wants custom_data to be an object', () => {
    expect(errorsOf(orderResource, { ...order, custom_data: 'x' })).toEqual([
      'error invalid-type @custom_data',
    ]);
    expect(errorsOf(orderResource, { ...order, custom_data: { anything: [1, { deep: true }] } })).toEqual([]);
  });
});

describe('order creation: customer and seller', () => {
  it('checks the customer fields', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        user: {
          id: 'U1',
          document_type: 'ssn',
          gender: 'x',
          social_login: 'x',
          user_type: 'x',
          creation_datetime: 'x',
          address: { street_name: 'A' },
        },
      }),
    ).toEqual([
      'error invalid-enum @user.document_type',
      'error invalid-enum @user.gender',
      'error invalid-enum @user.social_login',
      'error invalid-enum @user.user_type',
      'error invalid-datetime @user.creation_datetime',
      'error required @user.address.street_number',
      'error required @user.address.city',
      'error required @user.address.state',
      'error required @user.address.country',
    ]);
  });
  it('pairs phone fields (error) and only warns about non-digits', () => {
    expect(problems(orderResource, { ...order, user: { id: 'U1', phone_number: '11999990000' } })).toEqual([
      'error missing-pair @user.phone_country_code',
    ]);
    expect(
      problems(orderResource, {
        ...order,
        user: { id: 'U1', phone_number: '(11) 99999-0000', phone_country_code: '+55' },
      }),
    ).toEqual([
      'warning phone-not-digits @user.phone_number',
      'warning phone-not-digits @user.phone_country_code',
    ]);
  });
  it('checks the seller inside items[].product', () => {
    const seller = {
      phone_country_code: '+55',
      categories: 'shoes',
      creation_datetime: '2024-01-01',
      email: 'shop.example.com',
    };
    expect(problems(orderResource, { ...order, items: [{ product: { seller } }] })).toEqual([
      'error invalid-type @items.0.product.seller.categories',
      'error invalid-datetime @items.0.product.seller.creation_datetime',
      'error missing-pair @items.0.product.seller.phone_number',
      'warning phone-not-digits @items.0.product.seller.phone_country_code',
      'warning email-without-at @items.0.product.seller.email',
    ]);
  });
  it('warns about a customer e-mail without @', () => {
    expect(problems(orderResource, { ...order, user: { id: 'U1', email: 'maria.example.com' } })).toEqual([
      'warning email-without-at @user.email',
    ]);
  });
});

describe('order creation: items, payments, cards, deliveries', () => {
  it('wants quantity and installments whole numbers >= 1, item money non-negative', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        items: [{ quantity: 0, unit_price: -2, product: { categories: ['a'], title: 5 } }, { quantity: 1.5 }],
        payments: [{ id: 'P1', installments: 0 }],
      }),
    ).toEqual([
      'error out-of-range @items.0.quantity',
      'error out-of-range @items.0.unit_price',
      'error invalid-type @items.0.product.title',
      'error invalid-type @items.1.quantity',
      'error out-of-range @payments.0.installments',
    ]);
  });
  it('requires a payment id, a non-empty acquirer_id, and unique payment ids', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        payments: [{ value: 10 }, { id: 'P1', acquirer_id: '' }, { id: 'P1' }],
      }),
    ).toEqual([
      'error required @payments.0.id',
      'error empty-value @payments.1.acquirer_id',
      'error duplicate-id @payments.2.id',
    ]);
  });
  it('checks card digits and expiration', () => {
    const card = { first_six_digits: '41111', last_four_digits: '12a4', expiration_date: '13/2027' };
    expect(errorsOf(orderResource, { ...order, payments: [{ id: 'P1', card }] })).toEqual([
      'error invalid-format @payments.0.card.first_six_digits',
      'error invalid-format @payments.0.card.last_four_digits',
      'error invalid-format @payments.0.card.expiration_date',
    ]);
    for (const expiration_date of ['08/2027', '08/27']) {
      expect(
        errorsOf(orderResource, { ...order, payments: [{ id: 'P1', card: { expiration_date } }] }),
      ).toEqual([]);
    }
  });
  it('checks deliveries like §2.3, with unique ids and a delivery address', () => {
    expect(
      errorsOf(orderResource, {
        ...order,
        deliveries: [
          { id: 'D1', deliverer: { name: 'Ana' }, address: { ...address, city: undefined } },
          { id: 'D1', type: 'drone' },
        ],
      }),
    ).toEqual([
      'error required @deliveries.0.deliverer.id',
      'error required @deliveries.0.address.city',
      'error invalid-enum @deliveries.1.type',
      'error duplicate-id @deliveries.1.id',
    ]);
  });
});

describe('order creation: warnings', () => {
  it('warns when creation_datetime, total_paid_value, user or user.id are missing', () => {
    expect(problems(orderResource, { id: 'O1' })).toEqual([
      'warning missing-recommended @creation_datetime',
      'warning missing-recommended @total_paid_value',
      'warning missing-recommended @user',
    ]);
    expect(problems(orderResource, { ...order, user: { name: 'Ana' } })).toEqual([
      'warning missing-recommended @user.id',
    ]);
  });
  it('warns about a creation_datetime after the time of the run', () => {
    expect(problems(orderResource, { ...order, creation_datetime: '2030-01-01T00:00:00Z' })).toEqual([
      'warning future-datetime @creation_datetime',
    ]);
  });
  it('warns when the payments do not add up to total_paid_value (within 0.01)', () => {
    const payments = [
      { id: 'P1', value: 6 },
      { id: 'P2', value: 4.005 },
    ];
    expect(problems(orderResource, { ...order, payments })).toEqual([]);
    expect(problems(orderResource, { ...order, total_paid_value: 12, payments })).toEqual([
      'warning paid-value-mismatch @total_paid_value',
    ]);
    expect(
      problems(orderResource, {
        ...order,
        total_paid_value: 12,
        payments: [{ id: 'P1', value: 6 }, { id: 'P2' }],
      }),
    ).toEqual([]);
  });
  it('warns about a card that expired before the order was created', () => {
    const expired = { ...order, payments: [{ id: 'P1', card: { expiration_date: '02/24' } }] };
    expect(problems(orderResource, expired)).toEqual([
      'warning card-expired @payments.0.card.expiration_date',
    ]);
    expect(
      problems(orderResource, { ...expired, payments: [{ id: 'P1', card: { expiration_date: '03/2024' } }] }),
    ).toEqual([]);
  });
  it('warns about unknown fields at any depth and suggests the right name', () => {
    expect(
      problems(orderResource, {
        ...order,
        total_paid_valeu: 1,
        payments: [{ id: 'P1', card: { cvv: '123' } }],
      }),
    ).toEqual(['warning unknown-field @total_paid_valeu', 'warning unknown-field @payments.0.card.cvv']);
  });
  it('rejects a record that is not an object', () => {
    expect(problems(orderResource, [order])).toEqual(['error invalid-type @']);
  });
});

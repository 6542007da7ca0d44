import { exampleAddress, exampleDeliverer } from '../shared/index.js';
import type { Resource } from '../resource.js';
import { orderCoverage } from './coverage.js';
import { orderChecks } from './checks.js';
import { orderFacts, rememberOrder, type OrderFacts } from './facts.js';
import { orderSchema } from './schema.js';

export * from './schema.js';
export type { OrderFacts } from './facts.js';

export const orderResource: Resource<typeof orderSchema, OrderFacts> = {
  name: 'order',
  method: 'POST',
  path: '/v2/order',
  summary: 'create an order (evaluate: true asks for a decision)',
  role: 'creation',
  orderField: 'id',
  accepted: { status: 201, message: 'Order created' },
  schema: orderSchema,
  checks: orderChecks,
  facts: orderFacts,
  remember: rememberOrder,
  coverage: orderCoverage,
  example: {
    id: 'ORD-1001',
    evaluate: true,
    creation_datetime: '2024-03-01T14:30:00Z',
    total_paid_value: 259.9,
    total_gross_value: 279.9,
    discount_value: 20,
    currency: 'BRL',
    user: {
      id: 'CUST-42',
      name: 'Maria Souza',
      email: 'maria@example.com',
      phone_number: '11912345678',
      phone_country_code: '55',
      address: exampleAddress,
    },
    items: [
      {
        quantity: 1,
        unit_price: 279.9,
        product: { sku: 'SKU-9', title: 'Running shoes', categories: ['sports', 'shoes'] },
      },
    ],
    payments: [
      {
        id: 'PAY-1',
        method: 'credit_card',
        value: 259.9,
        installments: 3,
        card: {
          first_six_digits: '411111',
          last_four_digits: '1234',
          expiration_date: '08/2027',
          holder_name: 'MARIA SOUZA',
        },
      },
    ],
    deliveries: [
      { id: 'DEL-1', type: 'express', deliverer: { id: exampleDeliverer.id, name: exampleDeliverer.name } },
    ],
  },
};

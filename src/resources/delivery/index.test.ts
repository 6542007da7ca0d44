import { describe, expect, it } from 'vitest';
import { problems } from '../../../test/helpers/problems.js';
import { deliveryResource } from './index.js';

const base = { id: 'D1', order_id: 'O1' };
const deliverer = { id: 'C1', name: 'Ana' };
const address = { street_name: 'Rua A', street_number: '1', city: 'Rio', state: 'RJ', country: 'BR' };

describe('delivery (§2.3)', () => {
  it('accepts the example and a bare delivery', () => {
    expect(problems(deliveryResource, deliveryResource.example)).toEqual([]);
    expect(problems(deliveryResource, base)).toEqual([]);
  });
  it('requires id and order_id', () => {
    expect(problems(deliveryResource, {})).toEqual(['error required @id', 'error required @order_id']);
  });
  it('checks type, delivery_datetime and scheduled', () => {
    expect(problems(deliveryResource, { ...base, type: 'drone' })).toEqual(['error invalid-enum @type']);
    expect(problems(deliveryResource, { ...base, delivery_datetime: '2024-03-03 16:20:00' })).toEqual([
      'error invalid-datetime @delivery_datetime',
    ]);
    expect(problems(deliveryResource, { ...base, delivery_datetime: '2024-02-30T10:00:00Z' })).toEqual([
      'error invalid-datetime @delivery_datetime',
    ]);
    expect(problems(deliveryResource, { ...base, scheduled: 'yes' })).toEqual([
      'error invalid-type @scheduled',
    ]);
  });
});

describe('deliverer (§2.4)', () => {
  it('needs id and name when present', () => {
    expect(problems(deliveryResource, { ...base, deliverer: {} })).toEqual([
      'error required @deliverer.id',
      'error required @deliverer.name',
    ]);
  });
  it('checks its value sets', () => {
    const issues = problems(deliveryResource, {
      ...base,
      deliverer: {
        ...deliverer,
        document_type: 'ssn',
        gender: 'm',
        user_type: 'driver',
        social_login: 'tiktok',
      },
    });
    expect(issues).toEqual([
      'error invalid-enum @deliverer.document_type',
      'error invalid-enum @deliverer.gender',
      'error invalid-enum @deliverer.user_type',
      'error invalid-enum @deliverer.social_login',
    ]);
  });
  it('wants digits-only phone fields that come together', () => {
    expect(
      problems(deliveryResource, { ...base, deliverer: { ...deliverer, phone_number: '11999990000' } }),
    ).toEqual(['error missing-pair @deliverer.phone_country_code']);
    expect(
      problems(deliveryResource, { ...base, deliverer: { ...deliverer, phone_country_code: '55' } }),
    ).toEqual(['error missing-pair @deliverer.phone_number']);
    expect(
      problems(deliveryResource, {
        ...base,
        deliverer: { ...deliverer, phone_number: '(11) 99999-0000', phone_country_code: '+55' },
      }),
    ).toEqual([
      'error invalid-format @deliverer.phone_number',
      'error invalid-format @deliverer.phone_country_code',
    ]);
  });
  it('checks its creation_datetime', () => {
    expect(
      problems(deliveryResource, {
        ...base,
        deliverer: { ...deliverer, creation_datetime: '2024-01-01T00:00:00.000Z' },
      }),
    ).toEqual(['error invalid-datetime @deliverer.creation_datetime']);
  });
  it('still reports a missing pair when another field has a type error', () => {
    expect(
      problems(deliveryResource, { ...base, deliverer: { ...deliverer, email: 5, phone_number: '1' } }),
    ).toEqual(['error invalid-type @deliverer.email', 'error missing-pair @deliverer.phone_country_code']);
  });
});

describe('address (§2.5)', () => {
  it('accepts the five required fields', () => {
    expect(problems(deliveryResource, { ...base, deliverer: { ...deliverer, address } })).toEqual([]);
  });
  it('needs all five when present', () => {
    expect(
      problems(deliveryResource, { ...base, deliverer: { ...deliverer, address: { street_name: 'Rua A' } } }),
    ).toEqual([
      'error required @deliverer.address.street_number',
      'error required @deliverer.address.city',
      'error required @deliverer.address.state',
      'error required @deliverer.address.country',
    ]);
  });
  it('wants a string street_number and coordinates in range', () => {
    expect(
      problems(deliveryResource, {
        ...base,
        deliverer: {
          ...deliverer,
          address: { ...address, street_number: 252, latitude: 91, longitude: -181 },
        },
      }),
    ).toEqual([
      'error invalid-type @deliverer.address.street_number',
      'error out-of-range @deliverer.address.latitude',
      'error out-of-range @deliverer.address.longitude',
    ]);
  });
});

import * as z from 'zod';
import { pairedFields, uniqueIds } from '../../schema/checks.js';
import {
  currency,
  customData,
  datetime,
  documentType,
  exactDigits,
  expirationDate,
  gender,
  money,
  nonEmptyString,
  orderStatus,
  positiveInteger,
  socialLogin,
  stringArray,
  userType,
} from '../../schema/formats.js';
import { addressSchema } from '../shared/address.js';
import { deliveryFields } from '../shared/deliveryFields.js';

/** The customer (`user`); non-digit phones are only a warning here (see checks). */
export const customerSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    email: z.string().optional(),
    password_hash: z.string().optional(),
    document: z.string().optional(),
    document_type: documentType.optional(),
    phone_number: z.string().optional(),
    phone_country_code: z.string().optional(),
    gender: gender.optional(),
    social_login: socialLogin.optional(),
    user_type: userType.optional(),
    creation_datetime: datetime.optional(),
    address: addressSchema.optional(),
    custom_data: customData.optional(),
  })
  .check(pairedFields('phone_number', 'phone_country_code'));

export const sellerSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    email: z.string().optional(),
    document: z.string().optional(),
    document_type: documentType.optional(),
    categories: stringArray.optional(),
    subcategories: stringArray.optional(),
    phone_number: z.string().optional(),
    phone_country_code: z.string().optional(),
    creation_datetime: datetime.optional(),
    address: addressSchema.optional(),
    custom_data: customData.optional(),
  })
  .check(pairedFields('phone_number', 'phone_country_code'));

export const productSchema = z.object({
  product_id: z.string().optional(),
  sku: z.string().optional(),
  ean: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  categories: stringArray.optional(),
  subcategories: stringArray.optional(),
  seller: sellerSchema.optional(),
});

export const itemSchema = z.object({
  quantity: positiveInteger.optional(),
  unit_price: money.optional(),
  unit_discount: money.optional(),
  total_value: money.optional(),
  product: productSchema.optional(),
  custom_data: customData.optional(),
});

export const cardSchema = z.object({
  first_six_digits: exactDigits(6, '411111').optional(),
  last_four_digits: exactDigits(4, '1234').optional(),
  expiration_date: expirationDate.optional(),
  holder_name: z.string().optional(),
  document: z.string().optional(),
});

export const orderPaymentSchema = z.object({
  id: nonEmptyString,
  method: z.string().optional(),
  value: money.optional(),
  installments: positiveInteger.optional(),
  acquirer_id: nonEmptyString.optional(),
  card: cardSchema.optional(),
  custom_data: customData.optional(),
});

/** A delivery at creation: §2.3 without order_id, plus the delivery address. */
export const orderDeliverySchema = z.object({ ...deliveryFields, address: addressSchema.optional() });

/** POST /v2/order: the creation body as docs/payloads.md fixes it. */
export const orderSchema = z
  .object({
    id: nonEmptyString,
    evaluate: z.boolean().optional(),
    status: orderStatus.optional(),
    creation_datetime: datetime.optional(),
    total_paid_value: money.optional(),
    total_gross_value: money.optional(),
    discount_value: money.optional(),
    shipping_value: money.optional(),
    tip_value: money.optional(),
    currency: currency.optional(),
    coupon_names: stringArray.optional(),
    tax_invoice_document_type: documentType.optional(),
    tax_invoice_document: z.string().optional(),
    user: customerSchema.optional(),
    items: z.array(itemSchema).optional(),
    payments: z.array(orderPaymentSchema).optional(),
    deliveries: z.array(orderDeliverySchema).optional(),
    custom_data: customData.optional(),
  })
  .check(uniqueIds('payments', 'payment'), uniqueIds('deliveries', 'delivery'));
export type Order = z.infer<typeof orderSchema>;

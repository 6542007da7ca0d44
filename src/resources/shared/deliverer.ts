import * as z from 'zod';
import {
  customData,
  datetime,
  digits,
  documentType,
  gender,
  nonEmptyString,
  socialLogin,
  userType,
} from '../../schema/formats.js';
import { pairedFields } from '../../schema/checks.js';
import { addressSchema, exampleAddress } from './address.js';

/** §2.4: a deliverer, when present, needs its id and name; phone fields are digits and come together. */
export const delivererSchema = z
  .object({
    id: nonEmptyString,
    name: nonEmptyString,
    email: z.string().optional(),
    document: z.string().optional(),
    document_type: documentType.optional(),
    phone_number: digits.optional(),
    phone_country_code: digits.optional(),
    password_hash: z.string().optional(),
    gender: gender.optional(),
    user_type: userType.optional(),
    social_login: socialLogin.optional(),
    creation_datetime: datetime.optional(),
    address: addressSchema.optional(),
    custom_data: customData.optional(),
  })
  .check(pairedFields('phone_number', 'phone_country_code'));
export type Deliverer = z.infer<typeof delivererSchema>;

export const exampleDeliverer: Deliverer = {
  id: 'courier-17',
  name: 'Joana Lima',
  phone_number: '11987654321',
  phone_country_code: '55',
  address: exampleAddress,
};

import * as z from 'zod';
import { customData, latitude, longitude, nonEmptyString } from '../../schema/formats.js';

/** §2.5: an address, when present, carries its five required fields. */
export const addressSchema = z.object({
  street_name: nonEmptyString,
  street_number: nonEmptyString,
  city: nonEmptyString,
  state: nonEmptyString,
  country: nonEmptyString,
  zip_code: z.string().optional(),
  details: z.string().optional(),
  label: z.string().optional(),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
  custom_data: customData.optional(),
});
export type Address = z.infer<typeof addressSchema>;

export const exampleAddress: Address = {
  street_name: 'Avenida Paulista',
  street_number: '1000',
  city: 'Sao Paulo',
  state: 'SP',
  country: 'BR',
  zip_code: '01310100',
};

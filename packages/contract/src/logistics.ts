import { z } from 'zod';
import { isMobile } from './rules';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

const Paging = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

/** The supplier-enabled service every logistics call needs (spec section 6). */
export const LOGISTICS_SERVICE = 'service:logistics';

/**
 * A longitude or latitude: a number within its range, or left out. The console sends the pair
 * or neither (checked below), since one half of a position places nothing on a map.
 */
const Longitude = z
  .number({ error: 'rule.longitude' })
  .min(-180, { error: 'rule.longitude' })
  .max(180, { error: 'rule.longitude' });
const Latitude = z
  .number({ error: 'rule.latitude' })
  .min(-90, { error: 'rule.latitude' })
  .max(90, { error: 'rule.latitude' });

/** A contact's number, by the same rule as the other phone fields (profile.ts). */
const ContactPhone = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .refine((v) => isMobile(v), { error: 'rule.phone' });

/**
 * The receiving company's code: the 12-digit code of its top department, which the company
 * gives to its partners (docs/decisions.md, "Logistics addresses"). An empty string unlinks.
 */
const ReceiverCompanyCode = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .regex(/^\d{12}$/, { error: 'rule.receiverCompanyCode' }),
]);

/** `/api/logistics/saveAddress` (API.md "Logistics"): adds, or edits when `id` is given. */
export const SaveAddressRequest = z
  .object({
    id: Id.optional(),
    name: z.string().trim().min(1).max(100),
    contact: z.string().trim().min(1).max(50),
    phone: ContactPhone,
    address: z.string().trim().min(1).max(255),
    region: z.string().trim().max(255).optional(),
    lng: Longitude.nullable().optional(),
    lat: Latitude.nullable().optional(),
    remarks: z.string().trim().max(255).optional(),
    receiverCompanyCode: ReceiverCompanyCode.optional(),
  })
  .refine((v) => (v.lng == null) === (v.lat == null), {
    error: 'rule.positionPair',
    path: ['lat'],
  });
export type SaveAddressRequest = z.infer<typeof SaveAddressRequest>;

export const AddressIdRequest = z.object({ id: Id });
export type AddressIdRequest = z.infer<typeof AddressIdRequest>;

/** `/api/logistics/pageAddresses`: `keyword` matches name, contact, phone or address. */
export const PageAddressesRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
  region: z.string().trim().max(255).optional(),
});
export type PageAddressesRequest = z.infer<typeof PageAddressesRequest>;

/** One address as the list and the detail answer it. */
export interface AddressView {
  id: string;
  name: string;
  contact: string;
  phone: string;
  region: string;
  address: string;
  lng: number | null;
  lat: number | null;
  remarks: string;
  /** The receiving company on the platform, named by the code this company gave; null if none. */
  receiverCompany: { code: string; name: string } | null;
  createTime: number;
  updateTime: number;
}

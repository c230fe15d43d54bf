import { z } from 'zod';
import { ServiceAuthTags } from './permissions';
import { EpochMs } from './rules';

/**
 * The operator console (issue 17 item 6): calls under `/api/operator/*`, for platform operators
 * only (the user's operator flag), and the company administrator's support-access grant.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

const Paging = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

/** `/api/operator/pageCompanies`: every company, filtered by a part of its name. */
export const PageOperatorCompaniesRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
});
export type PageOperatorCompaniesRequest = z.infer<typeof PageOperatorCompaniesRequest>;

export const OperatorCompanyIdRequest = z.object({ id: Id });
export type OperatorCompanyIdRequest = z.infer<typeof OperatorCompanyIdRequest>;

/** One supplier-enabled service of a company: on until `expireTime` (epoch ms), or for good. */
export interface CompanyServiceView {
  tag: string;
  expireTime: number | null;
  /** On now: enabled and not past its expiry. */
  active: boolean;
}

export interface OperatorCompanyView {
  id: string;
  name: string;
  industry: string;
  region: string;
  address: string;
  disabled: boolean;
  createTime: number;
  memberCount: number;
  deviceCount: number;
  /** Message credit balance. */
  credits: number;
  services: CompanyServiceView[];
  /** Support access granted by the company until then (epoch ms); null = none. */
  supportAccessUntil: number | null;
}

const ServiceTag = z.enum(ServiceAuthTags, { error: 'rule.serviceTag' });

/**
 * `/api/operator/setServices`: the company's services, all of them (a tag left out is off), each
 * with an optional expiry (epoch ms, in the future).
 */
export const SetCompanyServicesRequest = z.object({
  id: Id,
  services: z
    .array(z.object({ tag: ServiceTag, expireTime: EpochMs.nullable().optional() }))
    .max(ServiceAuthTags.length * 2),
});
export type SetCompanyServicesRequest = z.infer<typeof SetCompanyServicesRequest>;

/** `/api/operator/grantCredits`: message credit given to the company, with the reason. */
export const GrantCreditsRequest = z.object({
  id: Id,
  amount: z.coerce
    .number()
    .int({ error: 'rule.creditAmount' })
    .min(1, { error: 'rule.creditAmount' })
    .max(1_000_000, {
      error: 'rule.creditAmount',
    }),
  note: z.string().trim().min(1).max(200),
});
export type GrantCreditsRequest = z.infer<typeof GrantCreditsRequest>;

/** `/api/operator/setCompanyDisabled`: a disabled company's members no longer reach it. */
export const SetCompanyDisabledRequest = z.object({ id: Id, disabled: z.boolean() });
export type SetCompanyDisabledRequest = z.infer<typeof SetCompanyDisabledRequest>;

/** `/api/operator/previewInventory` and `/api/operator/importInventory`: the stock CSV's text. */
export const InventoryCsvRequest = z.object({ csv: z.string().min(1).max(2_000_000) });
export type InventoryCsvRequest = z.infer<typeof InventoryCsvRequest>;

export interface InventoryCsvLine {
  serial: string;
  model: string;
  version: string;
  channelCount: number;
  /** Already in the stock: importing leaves it as it is. */
  exists: boolean;
}

export interface InventoryCsvPreview {
  lines: InventoryCsvLine[];
  /** Every bad line with its number (1 = the header) and reason; importing needs none. */
  problems: { line: number; reason: string }[];
}

export interface InventoryImportResult {
  added: number;
  existing: number;
}

/** `/api/operator/pageInventory`: the stock, by serial or model, bound or not. */
export const PageInventoryRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
  bound: z.boolean().optional(),
});
export type PageInventoryRequest = z.infer<typeof PageInventoryRequest>;

export interface InventoryRowView {
  serial: string;
  model: string;
  version: string;
  channelCount: number;
  createTime: number;
  /** The company the serial is bound to (a device of it), null while in stock. */
  companyId: string | null;
  companyName: string | null;
}

export const PageOperatorFeedbackRequest = z.object({ ...Paging });
export type PageOperatorFeedbackRequest = z.infer<typeof PageOperatorFeedbackRequest>;

export interface OperatorFeedbackView {
  id: string;
  content: string;
  category: number;
  images: string[];
  createTime: number;
  account: string;
  userName: string;
  companyName: string | null;
}

/** `/api/operator/pageSupportDevices`: a company's devices while it grants support access. */
export const PageSupportDevicesRequest = z.object({ ...Paging, id: Id });
export type PageSupportDevicesRequest = z.infer<typeof PageSupportDevicesRequest>;

export interface SupportDeviceView {
  id: string;
  serial: string;
  name: string;
  model: string;
  state: number;
  lastSeenTime: number | null;
  sensors: { channel: number; type: string; unit: string; value: number | null; updateTime: number | null }[];
}

/**
 * `/api/company/setSupportAccess`: the company administrator lets platform operators open the
 * company's devices read-only until `until` (epoch ms, at most 30 days ahead); null revokes.
 */
export const SetSupportAccessRequest = z.object({ until: EpochMs.nullable() });
export type SetSupportAccessRequest = z.infer<typeof SetSupportAccessRequest>;

export const SUPPORT_ACCESS_MAX_DAYS = 30;

export interface SupportAccessView {
  until: number | null;
}

import { z } from 'zod';
import { PersonOrRoleName } from './org';
import { isMobile, OptionalEmail } from './rules';

/*
 * The personal centre (spec sections 2, 3, 5 and 7): profile, passwords, signature password,
 * WeChat binding and the caller's own notices; plus the file uploads the console makes.
 */

/** Where an uploaded file is served from; profile pictures and feedback images must be such paths. */
export const UPLOAD_URL_PREFIX = '/files/';
/** `/files/<32 hex>.<ext>`: only names the server gave out are accepted as references. */
export const UPLOAD_URL_PATTERN = /^\/files\/[a-f0-9]{32}\.(jpg|png|gif|webp|pdf)$/;

/** Upload purposes and their limits (spec section 5 "Attachments"). */
export const UploadPurpose = {
  avatar: { maxBytes: 1_048_576, types: ['jpg', 'png', 'gif', 'webp'] },
  department: { maxBytes: 3 * 1_048_576, types: ['jpg', 'png'] },
  feedback: { maxBytes: 3 * 1_048_576, types: ['jpg', 'png', 'gif', 'webp'] },
  invoice: { maxBytes: 3 * 1_048_576, types: ['jpg', 'png'] },
  attachment: { maxBytes: 1_048_576, types: ['pdf', 'jpg', 'png'] },
  // "Under 5MB": one byte less than 5 MiB is the largest accepted.
  calibration: { maxBytes: 5 * 1_048_576 - 1, types: ['pdf'] },
} as const satisfies Record<string, { maxBytes: number; types: readonly string[] }>;
export type UploadPurposeName = keyof typeof UploadPurpose;
export const UPLOAD_PURPOSES = Object.keys(UploadPurpose) as UploadPurposeName[];
/**
 * Above this the transport refuses the upload (HTTP 413). It is twice the largest purpose limit,
 * so that a file a little too large gets the purpose's own message naming its limit.
 */
export const UPLOAD_MAX_BYTES = 2 * Math.max(...Object.values(UploadPurpose).map((p) => p.maxBytes + 1));

export interface UploadResult {
  url: string;
  size: number;
  type: string;
}

/** `/api/device/addCalibrationImg`: up to 3 images, returned one by one and comma-joined for `imgUrl`. */
export interface UploadManyResult {
  urls: string[];
  imgUrl: string;
}

export const UploadedUrl = z.string().trim().regex(UPLOAD_URL_PATTERN, { error: 'rule.uploadUrl' });

/** Spec section 3 "User": gender 0 unknown, 1 male, 2 female. */
export const Gender = { Unknown: 0, Male: 1, Female: 2 } as const;

const OptionalPhone = z
  .string()
  .trim()
  .max(20)
  .refine((v) => v === '' || isMobile(v), { error: 'rule.phone' });

/** `/api/user/updateUserInfo`: every field optional; what is sent is changed. */
export const UpdateUserInfoRequest = z.object({
  name: PersonOrRoleName.optional(),
  gender: z.coerce.number().int().min(0).max(2).optional(),
  phone: OptionalPhone.optional(),
  email: OptionalEmail.optional(),
  altPhone: OptionalPhone.optional(),
  headImg: z.union([z.literal(''), UploadedUrl]).optional(),
  pcAlarmVoice: z.boolean().optional(),
});
export type UpdateUserInfoRequest = z.infer<typeof UpdateUserInfoRequest>;

/** `/api/user/personalInfo`: what the personal centre shows. */
export interface PersonalInfo {
  id: string;
  account: string;
  name: string;
  gender: number;
  phone: string;
  email: string;
  altPhone: string;
  headImg: string;
  pcAlarmVoice: boolean;
  signPasswordSet: boolean;
  wechatBound: boolean;
  /** Follows the official account, so WeChat alarm messages reach the user. */
  wechatFollowed: boolean;
  company: string;
  department: string;
  role: string;
}

/** The signature password (patrol and export confirmation): 6-20 letters and digits. */
export const SIGN_PASSWORD_PATTERN = /^[A-Za-z0-9]{6,20}$/;
export const SignPassword = z.string().regex(SIGN_PASSWORD_PATTERN, { error: 'rule.signPassword' });

export const SetSignPasswordRequest = z
  .object({
    password: SignPassword,
    confirmPassword: z.string(),
    /**
     * When a signature password is already set, one of these proves the change: the current
     * signature password, or the login password for one who forgot it (docs/decisions.md).
     */
    oldPassword: z.string().max(128).optional(),
    loginPassword: z.string().max(128).optional(),
  })
  .refine((r) => r.password === r.confirmPassword, {
    error: 'rule.passwordsDiffer',
    path: ['confirmPassword'],
  });
export type SetSignPasswordRequest = z.infer<typeof SetSignPasswordRequest>;

export const CheckSignPasswordRequest = z.object({ password: z.string().min(1).max(128) });

/** `/api/user/getWeChatPublicAttentionUrl`: where the console sends the user to authorise. */
export const WeChatUrlRequest = z.object({ redirectUri: z.string().trim().url().max(500) });
export interface WeChatUrl {
  url: string;
  state: string;
}
export const BindWeChatRequest = z.object({
  code: z.string().trim().min(1).max(200),
  state: z.string().trim().max(100).optional(),
});

/** `/api/user/checkPhoneBinding`. */
export interface PhoneBinding {
  bound: boolean;
  /** The bound number with the middle digits hidden, '' when none. */
  phone: string;
}

/** `/api/user/getUserAddress`: the addresses the caller's work happens at. */
export interface UserAddress {
  company: string;
  companyAddress: string;
  department: string;
  departmentAddress: string;
  /** The department's address, else the company's. */
  address: string;
}

// ---- Notices -------------------------------------------------------------------------------

/** Notice states (spec section 4): unread, read, resolved, invalid. */
export const NoticeStateCode = { Unread: 1, Read: 2, Resolved: 3, Invalid: 4 } as const;

export const NoticeListRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  state: z.coerce.number().int().min(1).max(4).optional(),
});
export type NoticeListRequest = z.infer<typeof NoticeListRequest>;

export interface NoticeView {
  id: string;
  kind: string;
  title: string;
  content: string;
  state: number;
  createTime: number;
}

export const NoticeIdRequest = z.object({ id: z.coerce.string().min(1).max(40) });

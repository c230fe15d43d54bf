import { z } from 'zod';

/**
 * The signature password a signed action carries (alarm resolve, exports, patrol). Required only
 * while the company's audit signature is on (docs/decisions.md "One signature step"); ignored
 * otherwise. Not checked against the setting rule here: a wrong one is simply wrong.
 */
export const SignPasswordField = z.string().max(64).optional();

/** Wrong signature passwords in a row (within an hour) that lock signing. */
export const SIGN_LOCK_AFTER_FAILURES = 5;
/** How long signing stays locked after that. */
export const SIGN_LOCK_MINUTES = 15;

/** `/api/company/getAuditSignature` answer and `/api/company/setAuditSignature` body. */
export const AuditSignatureRequest = z.object({ enabled: z.boolean() });
export type AuditSignatureRequest = z.infer<typeof AuditSignatureRequest>;
export interface AuditSignatureSetting {
  enabled: boolean;
}

/** `/api/personnel/setExportExcel`: whether a member may export files (spec section 6 flag). */
export const MemberExportRequest = z.object({
  userId: z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' }),
  enabled: z.boolean(),
});
export type MemberExportRequest = z.infer<typeof MemberExportRequest>;

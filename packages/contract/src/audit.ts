import { z } from 'zod';

const PageQuery = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  startTime: z.coerce.number().int().nonnegative().optional(),
  endTime: z.coerce.number().int().nonnegative().optional(),
};

/** `/api/audit/pageOperationLog` */
export const PageOperationLogRequest = z.object({
  ...PageQuery,
  action: z.string().trim().max(60).optional(),
});
export type PageOperationLogRequest = z.infer<typeof PageOperationLogRequest>;

/** `/api/userLoginLog/pageUserLog` (own logins) and `auditPageUserLog` (everyone in the company). */
export const PageLoginLogRequest = z.object({ ...PageQuery, account: z.string().trim().max(100).optional() });
export type PageLoginLogRequest = z.infer<typeof PageLoginLogRequest>;

export interface LoginLogEntry {
  id: string;
  userId: string | null;
  account: string;
  userName: string;
  platform: number;
  method: string;
  status: number;
  reason: string;
  ip: string;
  location: string;
  time: number;
}

import { z } from 'zod';
import { UPLOAD_URL_PATTERN } from './profile';

/** `/api/user/addFeedback` (spec sections 3 and 7): content required, category 1-7 (default 7), up to 3 images. */
export const FEEDBACK_MAX_IMAGES = 3;
export const FEEDBACK_DEFAULT_CATEGORY = 7;

export const AddFeedbackRequest = z.object({
  content: z.string().trim().min(1).max(1000),
  category: z.coerce.number().int().min(1).max(7).default(FEEDBACK_DEFAULT_CATEGORY),
  /** Comma-joined (spec section 3) or an array; each must be a file this server stored. */
  imgUrl: z
    .union([z.string().max(2000), z.array(z.string().max(200)).max(10)])
    .default('')
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((u) => u.trim()).filter(Boolean))
    .refine((urls) => urls.length <= FEEDBACK_MAX_IMAGES, { error: 'rule.feedbackImages' })
    .refine((urls) => urls.every((u) => UPLOAD_URL_PATTERN.test(u)), { error: 'rule.uploadUrl' })
    .transform((urls) => urls.join(',')),
  source: z.literal(1).default(1),
});
export type AddFeedbackRequest = z.infer<typeof AddFeedbackRequest>;

/** `/api/user/pageFeedback`: the feedback the caller sent, newest first. */
export const PageFeedbackRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type PageFeedbackRequest = z.infer<typeof PageFeedbackRequest>;

/**
 * One feedback as its sender sees it. There is no reply yet: the supplier reads feedback outside
 * the console (docs/decisions.md), so a sent feedback has no state beyond its time.
 */
export interface FeedbackView {
  id: string;
  content: string;
  /** 1-7, labels `feedback.category.<n>` in the console. */
  category: number;
  images: string[];
  /** Epoch ms. */
  createTime: number;
  /** The company in scope when it was sent ('' when none). */
  companyName: string;
}

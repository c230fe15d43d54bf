import { z } from 'zod';

/** `/api/user/addFeedback` (spec sections 3 and 7): content required, category 1-7 (default 7), up to 3 images. */
export const FEEDBACK_MAX_IMAGES = 3;
export const FEEDBACK_DEFAULT_CATEGORY = 7;

export const AddFeedbackRequest = z.object({
  content: z.string().trim().min(1).max(1000),
  category: z.coerce.number().int().min(1).max(7).default(FEEDBACK_DEFAULT_CATEGORY),
  imgUrl: z
    .string()
    .max(2000)
    .default('')
    .refine((v) => v.split(',').filter(Boolean).length <= FEEDBACK_MAX_IMAGES, {
      error: 'rule.feedbackImages',
    }),
  source: z.literal(1).default(1),
});
export type AddFeedbackRequest = z.infer<typeof AddFeedbackRequest>;

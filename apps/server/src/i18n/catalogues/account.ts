import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the account area, in English and Simplified Chinese (keys are AppError codes). */
export const accountMessages = {} as const satisfies Catalogue;

/** Field labels of the account area's requests, so validation messages name the field. */
export const accountLabels: LabelCatalogue = {};

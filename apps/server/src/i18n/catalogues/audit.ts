import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the audit area, in English and Simplified Chinese (keys are AppError codes). */
export const auditMessages = {} as const satisfies Catalogue;

/** Field labels of the audit area's requests, so validation messages name the field. */
export const auditLabels: LabelCatalogue = {};

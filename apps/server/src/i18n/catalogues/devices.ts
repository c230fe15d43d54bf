import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the devices area, in English and Simplified Chinese (keys are AppError codes). */
export const devicesMessages = {} as const satisfies Catalogue;

/** Field labels of the devices area's requests, so validation messages name the field. */
export const devicesLabels: LabelCatalogue = {};

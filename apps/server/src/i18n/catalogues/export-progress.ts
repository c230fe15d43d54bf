import type { Catalogue, LabelCatalogue } from './types';

/** Messages of export progress (modules/export-progress), in English and Simplified Chinese. */
export const exportProgressMessages = {
  'rule.progressId': {
    en: '{field} must be 8 to 64 letters, digits or dashes',
    cn: '{field}必须是 8 到 64 位字母、数字或短横线',
  },
} as const satisfies Catalogue;

export const exportProgressLabels: LabelCatalogue = {
  progressId: { en: 'Export progress ID', cn: '导出进度编号' },
};

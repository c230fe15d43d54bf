import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the audit area, in English and Simplified Chinese (keys are AppError codes). */
export const auditMessages = {
  AUDIT_EXPORT_TOO_LARGE: {
    en: 'Too many records to export ({count}, at most {max}); choose a shorter period or narrow the filters',
    cn: '导出记录过多（{count} 条，最多 {max} 条），请缩短时间段或增加筛选条件',
  },
} as const satisfies Catalogue;

/** Field labels of the audit area's requests, so validation messages name the field. */
// Labels are shared by field name across areas: only the audit-specific field is added here
// (startTime, endTime, account and format are already named by other catalogues).
export const auditLabels: LabelCatalogue = {
  target: { en: 'Target', cn: '操作对象' },
};

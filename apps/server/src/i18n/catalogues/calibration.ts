import type { Catalogue, LabelCatalogue } from './types';

/** Messages of calibration records, in English and Simplified Chinese (keys are AppError codes). */
export const calibrationMessages = {
  'rule.calibrationDue': {
    en: '{field} must be after the calibration time',
    cn: '{field}必须晚于校准时间',
  },
  'rule.certificateUrl': {
    en: '{field} must be a PDF uploaded as a calibration certificate',
    cn: '{field}须为已上传的校准证书 PDF',
  },
  CALIBRATION_NOT_FOUND: { en: 'The calibration record does not exist', cn: '校准记录不存在' },
  CERTIFICATE_NOT_FOUND: {
    en: 'The certificate file was not found; upload it again',
    cn: '未找到校准证书文件，请重新上传',
  },
} as const satisfies Catalogue;

/** Field labels of calibration requests, so validation messages name the field. */
export const calibrationLabels: LabelCatalogue = {
  calibratedAt: { en: 'Calibration time', cn: '校准时间' },
  nextDueAt: { en: 'Next calibration time', cn: '下次校准时间' },
  institution: { en: 'Calibration institution', cn: '校准机构' },
  certificateUrl: { en: 'Calibration certificate', cn: '校准证书' },
};

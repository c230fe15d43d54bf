import type { Catalogue } from './types';

/** Messages of the data centre (modules/data-center), in English and Simplified Chinese. */
export const dataCenterMessages = {
  'rule.reportKind': {
    en: '{field} must be a file kind such as backup or backup.history',
    cn: '{field}必须是文件类型，例如 backup 或 backup.history',
  },
  REPORT_FILE_NOT_FOUND: { en: 'The file does not exist', cn: '文件不存在' },
  REPORT_FILE_NOT_KEPT: {
    en: 'This export was handed out when it was made and is not kept; only its fingerprint is recorded',
    cn: '该导出文件在生成时已直接下载，服务器未保存文件，仅记录了其指纹',
  },
  REPORT_FILE_MISSING: { en: 'The file is no longer available', cn: '文件已不存在' },
} as const satisfies Catalogue;

/** `kind` means the kind of generated file in the data centre's list. */
export const dataCenterRouteLabels = {
  '/api/dataCenter/pageFiles': { kind: { en: 'File kind', cn: '文件类型' } },
};

import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the open API and its keys (modules/open-api). */
export const openApiMessages = {
  'rule.keyName': { en: '{field} must be 2-50 characters', cn: '{field}长度须为 2-50 个字符' },
  'rule.openDevices': {
    en: '{field}: at most 5000 devices per key',
    cn: '{field}：每个密钥最多 5000 台设备',
  },
  OPEN_API_SERVICE_OFF: {
    en: 'The open API service is not enabled for this company; ask your supplier',
    cn: '本企业未开通开放接口服务，请联系供应商',
  },
  OPEN_API_KEY_NOT_FOUND: { en: 'The key does not exist', cn: '密钥不存在' },
  OPEN_API_KEY_REVOKED: { en: 'The key has been revoked', cn: '该密钥已被吊销' },
  OPEN_API_TOO_MANY_KEYS: {
    en: 'A company may hold at most 20 active keys; revoke one first',
    cn: '每个企业最多拥有 20 个有效密钥，请先吊销一个',
  },
  OPEN_API_UNSIGNED: {
    en: 'Signature missing: send X-App-Key, X-Timestamp, X-Nonce and X-Signature',
    cn: '缺少签名：请发送 X-App-Key、X-Timestamp、X-Nonce 和 X-Signature',
  },
  OPEN_API_BAD_KEY: { en: 'Unknown or revoked app key', cn: 'AppKey 不存在或已被吊销' },
  OPEN_API_BAD_TIMESTAMP: {
    en: 'X-Timestamp must be epoch milliseconds within 5 minutes of the server clock',
    cn: 'X-Timestamp 必须为与服务器时间相差 5 分钟以内的毫秒时间戳',
  },
  OPEN_API_BAD_NONCE: { en: 'X-Nonce must be 8-64 characters', cn: 'X-Nonce 长度须为 8-64 个字符' },
  OPEN_API_NONCE_USED: {
    en: 'This nonce was used in the last 10 minutes; send a new one with each request',
    cn: '该 Nonce 在 10 分钟内已使用，每次请求须使用新的 Nonce',
  },
  OPEN_API_BAD_SIGNATURE: { en: 'The signature does not match the request', cn: '签名与请求不符' },
} satisfies Catalogue;

/** `name` is the key's name only on its own call. */
export const openApiRouteLabels: Record<string, LabelCatalogue> = {
  '/api/openApi/createKey': { name: { en: 'Key name', cn: '密钥名称' } },
};

import type { Catalogue } from './types';

/** Messages of message credit and its ledger (modules/billing/credits.*). */
export const creditsMessages = {
  CREDIT_EXPORT_TOO_LARGE: {
    en: 'The ledger selection has {count} rows, more than the {max} one export may hold; choose a shorter period',
    cn: '所选流水共 {count} 条，超过单次导出上限 {max} 条，请缩短时间范围',
  },
} as const satisfies Catalogue;

/** In the ledger's calls `kind` is the kind of entry and `channel` the message's channel. */
const ledgerLabels = {
  kind: { en: 'Entry type', cn: '流水类型' },
  channel: { en: 'Message channel', cn: '消息渠道' },
};
export const creditsRouteLabels = {
  '/api/credit/pageLedger': ledgerLabels,
  '/api/credit/exportLedger': ledgerLabels,
};

/** The ledger export's texts, in the request's language. */
export const creditExportTexts = {
  sheet: { en: 'Message credit ledger', cn: '消息余额流水' },
  columns: {
    time: { en: 'Time', cn: '时间' },
    kind: { en: 'Entry type', cn: '流水类型' },
    amount: { en: 'Credits', cn: '条数' },
    channel: { en: 'Channel', cn: '渠道' },
    alarm: { en: 'Alarm ID', cn: '报警编号' },
    alarmType: { en: 'Alarm type', cn: '报警类型' },
    device: { en: 'Device', cn: '设备' },
    serial: { en: 'Serial number', cn: '序列号' },
    reason: { en: 'Reason', cn: '说明' },
  },
  kinds: {
    grant: { en: 'Top-up / grant', cn: '充值/赠送' },
    debit: { en: 'Message sent', cn: '消息扣费' },
    refund: { en: 'Refund (not delivered)', cn: '退回（未送达）' },
  } as Record<string, { en: string; cn: string }>,
  channels: {
    sms: { en: 'SMS', cn: '短信' },
    call: { en: 'Phone call', cn: '电话' },
    email: { en: 'E-mail', cn: '邮件' },
    wechat: { en: 'WeChat', cn: '微信' },
    whatsapp: { en: 'WhatsApp', cn: 'WhatsApp' },
  } as Record<string, { en: string; cn: string }>,
  /** Reasons the platform writes itself (credits.service.ts of delivery, the demo seed). */
  reasons: {
    'starter credit': { en: 'Starter credit', cn: '开户赠送' },
    'demo starting balance': { en: 'Demo starting balance', cn: '演示初始余额' },
  } as Record<string, { en: string; cn: string }>,
};

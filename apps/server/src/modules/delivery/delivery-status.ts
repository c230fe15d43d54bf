/**
 * Statuses of an `alarm_notifications` row once the delivery worker knows it. `pending` is the
 * engine's; `sending` is a claimed row; `retrying` waits for `next_attempt_at`. The rest are
 * final and visible in the alarm's detail (USERS.md: a visible delivery status), except `sent`:
 * the provider's receipt may still turn it into `delivered` or `failed` (with its error).
 */
export const DeliveryStatus = {
  Pending: 'pending',
  Sending: 'sending',
  Retrying: 'retrying',
  Sent: 'sent',
  /** The provider's receipt says it reached the phone (receipts/apply-receipt.ts); final. */
  Delivered: 'delivered',
  Failed: 'failed',
  NotConfigured: 'not configured',
  NoRecipient: 'no recipient address',
  NoCredit: 'no credit',
  DailyCap: 'daily cap reached',
  /** The company's remote alarm service of this channel is off or ended (issue 17 item 5); final. */
  ServiceOff: 'service off',
} as const;
export type DeliveryStatus = (typeof DeliveryStatus)[keyof typeof DeliveryStatus];

export const statusLabels: Record<DeliveryStatus, { en: string; cn: string }> = {
  pending: { en: 'Waiting to be sent', cn: '等待发送' },
  sending: { en: 'Sending', cn: '发送中' },
  retrying: { en: 'Failed, will retry', cn: '发送失败，稍后重试' },
  sent: { en: 'Sent', cn: '已发送' },
  delivered: { en: 'Delivered', cn: '已送达' },
  failed: { en: 'Failed, gave up', cn: '发送失败，已放弃' },
  'not configured': { en: 'Channel not configured', cn: '该通知方式未配置' },
  'no recipient address': { en: 'No recipient address', cn: '接收人无联系地址' },
  'no credit': { en: 'Not sent: no credit', cn: '未发送：余额不足' },
  'service off': {
    en: "Not sent: this channel is not among the company's services",
    cn: '未发送：企业未开通该通知方式',
  },
  'daily cap reached': {
    en: 'Not sent: daily limit for this number reached',
    cn: '未发送：该号码今日已达上限',
  },
};

import type { Catalogue, LabelCatalogue } from './types';

/** Messages of device renewal, data recovery and parameter push down (keys are AppError codes). */
export const billingMessages = {
  // Spec section 8, word for word.
  TOP_UP_NOT_ALLOWED: { en: 'Cannot top up without permission', cn: '没有充值权限，无法充值' },
  ORDER_NOT_FOUND: { en: 'The order does not exist', cn: '订单不存在' },
  ORDER_NOT_PENDING: {
    en: 'Only an order pending payment or approval can be cancelled',
    cn: '只能取消待支付或待审核的订单',
  },
  RECOVERY_PERIOD_IN_FUTURE: {
    en: 'The data recovery period must lie in the past',
    cn: '数据恢复时间段必须是过去的时间',
  },
  'rule.renewalMonths': {
    en: 'The renewal duration must be a whole number of months, at least 1',
    cn: '续费时长须为整数月，至少 1 个月',
  },
  'rule.renewalMonthsMax': {
    en: 'The renewal duration may be at most 120 months',
    cn: '续费时长最多 120 个月',
  },
  PARAMETERS_BUSY: {
    en: 'The device has not yet answered the previous parameter request; wait for it to finish',
    cn: '设备尚未应答上一次参数请求，请稍候再试',
  },
  'rule.parametersRequired': {
    en: 'Enter at least one parameter to push',
    cn: '请至少填写一个要下发的参数',
  },
} as const satisfies Catalogue;

export const billingLabels: LabelCatalogue = {
  // Field names shared with other areas stay generic (`status` is also the login log's).
  months: { en: 'Renewal duration', cn: '续费时长' },
  kind: { en: 'Type', cn: '类型' },
  status: { en: 'Status', cn: '状态' },
};

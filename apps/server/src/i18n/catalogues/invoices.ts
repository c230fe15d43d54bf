import type { Catalogue } from './types';

/** Messages of payments and invoice applications (modules/billing/payments*, invoices*). */
export const invoicesMessages = {
  // Spec section 9 / API.md "Billing", word for word; Chinese texts name the currency 元.
  INVOICE_MINIMUM: { en: 'Minimum invoice amount RM200', cn: '最低开票金额为200元' },
  INVOICE_NOT_FOUND: { en: 'The invoice application does not exist', cn: '发票申请不存在' },
  INVOICE_NOT_IN_PROGRESS: {
    en: 'Only an invoice application in progress can be changed',
    cn: '只能操作申请中的发票',
  },
  INVOICE_ORDER_UNAVAILABLE: {
    en: 'Order {orderNo} is not paid or is already on an invoice application',
    cn: '订单 {orderNo} 未支付或已在其他发票申请中',
  },
  INVOICE_PDF_REQUIRED: { en: 'Upload the invoice as a PDF file', cn: '请上传 PDF 格式的发票文件' },
  INVOICE_NO_PDF: { en: 'The invoice has not been issued yet', cn: '发票尚未开具' },
  UPLOADED_FILE_MISSING: {
    en: 'The uploaded image was not found; upload it again',
    cn: '未找到上传的图片，请重新上传',
  },
  ORDER_DUE_NOT_PENDING: {
    en: 'Only an order pending payment or approval can be given a due date',
    cn: '只能为待支付或待审核的订单设置到期日',
  },
  ORDER_NOT_PAYABLE: {
    en: 'Only an order pending payment or approval can be paid',
    cn: '只能支付待支付或待审核的订单',
  },
  PAYMENT_ONLINE_OFF: {
    en: 'Online payment is not available; pay by bank transfer',
    cn: '暂不支持在线支付，请使用银行转账',
  },
  PAYMENT_PROVIDER_FAILED: {
    en: 'The payment service did not answer; try again later or pay by bank transfer',
    cn: '支付服务无响应，请稍后再试或使用银行转账',
  },
  PAYMENT_SIGNATURE_INVALID: {
    en: 'The payment notification signature is missing, wrong or expired',
    cn: '支付通知签名缺失、错误或已过期',
  },
  'rule.credits': {
    en: 'Buy a whole number of message credits, from 100 to 1,000,000',
    cn: '请购买整数条消息，100 至 1,000,000 条',
  },
  'rule.proofImage': { en: '{field}: upload a JPG or PNG image', cn: '{field}：请上传 JPG 或 PNG 图片' },
  'rule.dueDate': {
    en: 'Due date: choose a day (YYYY-MM-DD), or none',
    cn: '到期日：请选择日期（YYYY-MM-DD），或不设置',
  },
  'rule.rejectReason': { en: 'Enter the reason for rejecting', cn: '请填写驳回原因' },
  'rule.invoiceOrders': { en: 'Select at least one paid order', cn: '请至少选择一个已支付的订单' },
  'rule.invoiceType': { en: 'Choose an electronic or a paper invoice', cn: '请选择电子发票或纸质发票' },
  'rule.invoiceEmail': {
    en: 'Enter a correct e-mail address for the electronic invoice',
    cn: '请填写正确的电子发票接收邮箱',
  },
  'rule.invoiceMailing': {
    en: 'A paper invoice needs the mailing address, recipient and contact',
    cn: '纸质发票需填写邮寄地址、收件人和联系电话',
  },
} as const satisfies Catalogue;

const invoiceLabels = {
  orderIds: { en: 'Orders', cn: '订单' },
  type: { en: 'Invoice type', cn: '发票类型' },
  title: { en: 'Invoice title', cn: '发票抬头' },
  taxpayerId: { en: 'Taxpayer ID', cn: '纳税人识别号' },
  bank: { en: 'Bank', cn: '开户银行' },
  account: { en: 'Bank account', cn: '银行账号' },
  companyAddress: { en: 'Company address', cn: '公司地址' },
  companyPhone: { en: 'Company phone', cn: '公司电话' },
  mailingAddress: { en: 'Mailing address', cn: '邮寄地址' },
  postcode: { en: 'Postcode', cn: '邮政编码' },
  recipient: { en: 'Recipient', cn: '收件人' },
  contact: { en: 'Contact phone', cn: '联系电话' },
  email: { en: 'E-mail for the electronic invoice', cn: '电子发票接收邮箱' },
  proofImage: { en: 'Proof image', cn: '凭证图片' },
  status: { en: 'Status', cn: '状态' },
  pdfFile: { en: 'Invoice PDF', cn: '发票文件' },
  reason: { en: 'Reason', cn: '原因' },
};
const paymentLabels = {
  proofImage: { en: 'Transfer proof', cn: '转账凭证' },
  credits: { en: 'Message credits', cn: '消息条数' },
  reason: { en: 'Reason', cn: '原因' },
  status: { en: 'Status', cn: '状态' },
  kind: { en: 'Type', cn: '类型' },
  dueDate: { en: 'Due date', cn: '到期日' },
};
export const invoicesRouteLabels = {
  '/api/invoice/applyInvoice': invoiceLabels,
  '/api/invoice/pageInvoices': invoiceLabels,
  '/api/operator/invoice/pageInvoices': invoiceLabels,
  '/api/operator/invoice/issueInvoice': invoiceLabels,
  '/api/operator/invoice/rejectInvoice': invoiceLabels,
  '/api/order/payByTransfer': paymentLabels,
  '/api/order/buyCredits': paymentLabels,
  '/api/order/pageServiceList': paymentLabels,
  '/api/operator/order/rejectOrder': paymentLabels,
  '/api/operator/order/pageOrders': paymentLabels,
  '/api/operator/order/setDueDate': paymentLabels,
};

/** The e-mail that carries news of an issued electronic invoice (both languages: the company has none of its own). */
export const invoiceIssuedMail = {
  subject: 'Invoice issued / 发票已开具',
  body: (title: string, amountRm: string) =>
    `Your invoice "${title}" for RM${amountRm} has been issued. Download the PDF in the console under Invoice management.\n\n` +
    `您的发票“${title}”（${amountRm}元）已开具，请在控制台“发票管理”中下载 PDF。`,
};

import type { Catalogue, LabelCatalogue } from './types';

/** Messages of logistics (modules/logistics): addresses so far. */
export const logisticsMessages = {
  'rule.longitude': {
    en: '{field} must be a number from -180 to 180',
    cn: '{field}须为 -180 到 180 之间的数字',
  },
  'rule.latitude': { en: '{field} must be a number from -90 to 90', cn: '{field}须为 -90 到 90 之间的数字' },
  'rule.positionPair': {
    en: 'Enter both longitude and latitude, or neither',
    cn: '经度和纬度须同时填写或同时留空',
  },
  'rule.receiverCompanyCode': {
    en: '{field} must be the 12-digit company code',
    cn: '{field}须为 12 位企业代码',
  },
  LOGISTICS_SERVICE_OFF: {
    en: 'The logistics service is not enabled for this company; ask your supplier',
    cn: '本企业未开通物流服务，请联系供应商',
  },
  LOGISTICS_ADDRESS_NOT_FOUND: { en: 'The address does not exist', cn: '地址不存在' },
  LOGISTICS_ADDRESS_IN_USE: {
    en: 'This address is used by {count} delivery orders and cannot be deleted',
    cn: '该地址已被 {count} 个运单使用，无法删除',
  },
  LOGISTICS_RECEIVER_UNKNOWN: {
    en: 'No company on the platform has this company code; ask the receiving company for the code of its top department',
    cn: '平台上没有使用该企业代码的企业，请向收货企业索取其顶级部门的代码',
  },
  LOGISTICS_DELIVERY_NOT_FOUND: { en: 'The delivery order does not exist', cn: '运单不存在' },
  LOGISTICS_DELIVERY_STATE_1: {
    en: 'Not possible: the order is created',
    cn: '无法操作：运单已创建',
  },
  LOGISTICS_DELIVERY_STATE_2: {
    en: 'Not possible: the order is in transit',
    cn: '无法操作：运单运输中',
  },
  LOGISTICS_DELIVERY_STATE_3: {
    en: 'Not possible: the order is arrived',
    cn: '无法操作：运单已到达',
  },
  LOGISTICS_DELIVERY_STATE_4: {
    en: 'Not possible: the order is received',
    cn: '无法操作：运单已签收',
  },
  LOGISTICS_DELIVERY_STATE_5: {
    en: 'Not possible: the order is rejected',
    cn: '无法操作：运单已拒收',
  },
  LOGISTICS_DELIVERY_STATE_6: {
    en: 'Not possible: the order is cancelled',
    cn: '无法操作：运单已取消',
  },
  LOGISTICS_DEVICE_BUSY: {
    en: 'These monitors are already on another active shipment: {serials}',
    cn: '以下监测设备已在另一个未完成的运单中：{serials}',
  },
  LOGISTICS_PHOTO_NOT_FOUND: { en: 'The photo was not found; upload it again', cn: '未找到照片，请重新上传' },
  LOGISTICS_PHOTO_TYPE: { en: 'The photo must be a JPG or PNG image', cn: '照片须为 JPG 或 PNG 图片' },
  LOGISTICS_RECIPIENT_INVALID: {
    en: 'Enter a valid e-mail address or mobile number for the receiver',
    cn: '请填写收货人有效的邮箱或手机号',
  },
  LOGISTICS_LINK_EXPIRED: {
    en: 'This receipt link is not valid or has expired; ask the sender for a new one',
    cn: '该签收链接无效或已过期，请向发货方索取新链接',
  },
  'rule.tempRange': { en: 'The lowest temperature must be below the highest', cn: '最低温度须低于最高温度' },
  'rule.humidityRange': { en: 'The lowest humidity must be below the highest', cn: '最低湿度须低于最高湿度' },
  'rule.sameAddress': {
    en: 'The receiver address must differ from the sender address',
    cn: '收货地址须与发货地址不同',
  },
  'rule.receiptLink': { en: 'The receipt link is not valid', cn: '签收链接无效' },
  'rule.drawnSignature': { en: 'Draw your signature', cn: '请手写签名' },
  'rule.number': { en: '{field} must be a number', cn: '{field}须为数字' },
} satisfies Catalogue;

/** Labels of the address fields, on the logistics calls only (`name` means the address's name there). */
const addressLabels: LabelCatalogue = {
  name: { en: 'Address name', cn: '地址名称' },
  contact: { en: 'Contact', cn: '联系人' },
  phone: { en: 'Contact phone', cn: '联系电话' },
  address: { en: 'Detailed address', cn: '详细地址' },
  region: { en: 'Region', cn: '所在地区' },
  lng: { en: 'Longitude', cn: '经度' },
  lat: { en: 'Latitude', cn: '纬度' },
  remarks: { en: 'Remarks', cn: '备注' },
  receiverCompanyCode: { en: 'Receiving company code', cn: '收货企业代码' },
  keyword: { en: 'Keyword', cn: '关键字' },
};

/** Labels of the delivery order fields. */
const deliveryLabels: LabelCatalogue = {
  senderAddressId: { en: 'Sender address', cn: '发货地址' },
  receiverAddressId: { en: 'Receiver address', cn: '收货地址' },
  goods: { en: 'Goods', cn: '货物' },
  name: { en: 'Goods name', cn: '货物名称' },
  quantity: { en: 'Quantity', cn: '数量' },
  batch: { en: 'Batch or lot', cn: '批号' },
  tempMin: { en: 'Lowest temperature', cn: '最低温度' },
  tempMax: { en: 'Highest temperature', cn: '最高温度' },
  humidityMin: { en: 'Lowest humidity', cn: '最低湿度' },
  humidityMax: { en: 'Highest humidity', cn: '最高湿度' },
  deviceIds: { en: 'Monitors', cn: '监测设备' },
  carrier: { en: 'Carrier', cn: '承运商' },
  vehicle: { en: 'Vehicle', cn: '车辆' },
  plannedDeparture: { en: 'Planned departure', cn: '计划发车时间' },
  plannedArrival: { en: 'Planned arrival', cn: '计划到达时间' },
  remarks: { en: 'Remarks', cn: '备注' },
  recipient: { en: 'Receiver e-mail or mobile', cn: '收货人邮箱或手机号' },
  signerName: { en: 'Your name', cn: '您的姓名' },
  photo: { en: 'Photo of the goods', cn: '货物照片' },
  signature: { en: 'Signature', cn: '签名' },
  signPassword: { en: 'Signature password', cn: '签名密码' },
  keyword: { en: 'Keyword', cn: '关键字' },
};

export const logisticsRouteLabels: Record<string, LabelCatalogue> = {
  '/api/logistics/saveAddress': addressLabels,
  '/api/logistics/pageAddresses': addressLabels,
  '/api/logistics/saveDelivery': deliveryLabels,
  '/api/logistics/pageDeliveries': deliveryLabels,
  '/api/logistics/pageReceiving': deliveryLabels,
  '/api/logistics/receiveDelivery': deliveryLabels,
  '/api/logistics/sendReceiptLink': deliveryLabels,
  '/api/logistics/linkReceive': deliveryLabels,
};

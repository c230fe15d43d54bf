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

export const logisticsRouteLabels: Record<string, LabelCatalogue> = {
  '/api/logistics/saveAddress': addressLabels,
  '/api/logistics/pageAddresses': addressLabels,
};

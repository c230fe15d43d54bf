import type { Catalogue, LabelCatalogue } from './types';

/** Messages of cameras (modules/camera). */
export const cameraMessages = {
  'rule.cameraName': { en: '{field} must be 2-100 characters', cn: '{field}长度须为 2-100 个字符' },
  'rule.cameraPlatform': { en: '{field}: choose EZVIZ or direct stream', cn: '{field}：请选择萤石或直连流' },
  'rule.cameraSerial': { en: '{field} must be 1-64 characters', cn: '{field}长度须为 1-64 个字符' },
  'rule.cameraChannel': {
    en: '{field} must be a whole number from 1 to 256',
    cn: '{field}须为 1 到 256 的整数',
  },
  'rule.streamUrl': {
    en: '{field} must be an http or https address of an HLS stream (.m3u8)',
    cn: '{field}须为 HLS 流（.m3u8）的 http 或 https 地址',
  },
  'rule.appKey': { en: '{field} must be 1-200 characters', cn: '{field}长度须为 1-200 个字符' },
  'rule.appSecret': { en: '{field} must be 1-200 characters', cn: '{field}长度须为 1-200 个字符' },
  'rule.screenSize': {
    en: '{field}: choose 1, 4, 9 or 16 tiles',
    cn: '{field}：请选择 1、4、9 或 16 个画面',
  },
  CAMERA_NOT_FOUND: { en: 'The camera does not exist', cn: '摄像头不存在' },
  CAMERA_EXISTS: {
    en: 'This account already has a camera with this serial number and channel',
    cn: '该平台账号下已有相同序列号和通道的摄像头',
  },
  CAMERA_ACCOUNT_NOT_FOUND: { en: 'The platform account does not exist', cn: '平台账号不存在' },
  CAMERA_ACCOUNT_IN_USE: {
    en: '{count} cameras use this platform account; delete or move them first',
    cn: '有 {count} 个摄像头使用该平台账号，请先删除或更换',
  },
  CAMERA_CREDENTIALS_REQUIRED: {
    en: 'An EZVIZ account needs both its app key and app secret',
    cn: '萤石账号须同时填写 AppKey 和 AppSecret',
  },
  CAMERA_PLATFORM_FIXED: {
    en: 'The platform of a saved account cannot change; add a new account instead',
    cn: '已保存账号的平台不能更改，请新增账号',
  },
  CAMERA_STREAM_REQUIRED: {
    en: 'A direct-stream camera needs its HLS address',
    cn: '直连流摄像头须填写 HLS 地址',
  },
  CAMERA_PLATFORM_REFUSED: {
    en: 'The video platform refused: {reason}',
    cn: '视频平台拒绝了请求：{reason}',
  },
} satisfies Catalogue;

const cameraLabels: LabelCatalogue = {
  name: { en: 'Name', cn: '名称' },
  platform: { en: 'Platform', cn: '平台' },
  appKey: { en: 'App key', cn: 'AppKey' },
  appSecret: { en: 'App secret', cn: 'AppSecret' },
  serial: { en: 'Serial number', cn: '序列号' },
  type: { en: 'Type', cn: '类型' },
  platformAccountId: { en: 'Platform account', cn: '平台账号' },
  channel: { en: 'Channel', cn: '通道' },
  streamUrl: { en: 'Stream address', cn: '流地址' },
  equipmentIds: { en: 'Equipment', cn: '冷链设备' },
  deviceIds: { en: 'Monitors', cn: '监测设备' },
  size: { en: 'Tiles', cn: '画面数' },
  cameraIds: { en: 'Cameras', cn: '摄像头' },
};

export const cameraRouteLabels: Record<string, LabelCatalogue> = {
  '/api/camera/savePlatformAccount': cameraLabels,
  '/api/camera/saveCamera': cameraLabels,
  '/api/camera/pageCameras': cameraLabels,
  '/api/camera/saveScreen': cameraLabels,
};

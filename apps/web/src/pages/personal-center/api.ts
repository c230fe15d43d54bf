import type {
  AddressCodeIssued,
  NoticeListRequest,
  NoticeView,
  Page,
  PersonalInfo,
  UpdateUserInfoRequest,
  UploadResult,
  WeChatUrl,
} from '@coldchain/contract';
import { request, uploadFile } from '../../api/request';

/** The calls of the personal centre (docs/API.md, "Personal centre"). */
export const PC_PATHS = {
  info: '/api/user/personalInfo',
  update: '/api/user/updateUserInfo',
  updatePassword: '/api/user/updatePassword',
  setSignPassword: '/api/user/setSignPassword',
  weChatUrl: '/api/user/getWeChatPublicAttentionUrl',
  bindWeChat: '/api/user/bindWeChat',
  followStatus: '/api/user/weChatFollowStatus',
  unbindWeChat: '/api/user/unbindWeChat',
  unbindWeChatOfficial: '/api/user/unbindWeChatOfficial',
  notices: '/api/user/userNoticeList',
  readNotice: '/api/user/readNotice',
  readAll: '/api/user/readNoticeAll',
  deleteNotice: '/api/user/deleteNotice',
  upload: '/api/file/upload',
  createAddressCode: '/api/loginCode/createAddressCode',
} as const;

export const fetchPersonalInfo = () => request<PersonalInfo>(PC_PATHS.info);
export const updateUserInfo = (body: UpdateUserInfoRequest) => request<PersonalInfo>(PC_PATHS.update, body);
export const updatePassword = (body: { oldPassword: string; password: string; confirmPassword: string }) =>
  request<{ loggedOut: boolean }>(PC_PATHS.updatePassword, body);
export const setSignPassword = (body: {
  password: string;
  confirmPassword: string;
  oldPassword?: string;
  loginPassword?: string;
}) => request<null>(PC_PATHS.setSignPassword, body);
export const fetchWeChatUrl = (redirectUri: string) =>
  request<WeChatUrl>(PC_PATHS.weChatUrl, { redirectUri });
export const bindWeChat = (code: string, state: string | undefined) =>
  request<{ followed: boolean }>(PC_PATHS.bindWeChat, state ? { code, state } : { code });
export const refreshFollowStatus = () =>
  request<{ bound: boolean; followed: boolean }>(PC_PATHS.followStatus);
export const unbindWeChat = () => request<null>(PC_PATHS.unbindWeChat);
export const unbindWeChatOfficial = () => request<null>(PC_PATHS.unbindWeChatOfficial);
export const fetchNotices = (body: Partial<NoticeListRequest>) =>
  request<Page<NoticeView>>(PC_PATHS.notices, body);
export const readNotice = (id: string) => request<null>(PC_PATHS.readNotice, { id });
export const readAllNotices = () => request<{ count: number }>(PC_PATHS.readAll);
export const deleteNotice = (id: string) => request<null>(PC_PATHS.deleteNotice, { id });
export const uploadAvatar = (file: File) =>
  uploadFile<UploadResult>(PC_PATHS.upload, file, file.name, { purpose: 'avatar' });
/** A one-time login link for a data screen or kiosk (docs/API.md "Login security"). */
export const createAddressCode = () => request<AddressCodeIssued>(PC_PATHS.createAddressCode);

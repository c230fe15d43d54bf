import {
  type AddFeedbackRequest,
  type FeedbackView,
  type LoginNeedsCode,
  type LoginResult,
  LoginType,
  type Page,
  Platform,
  type UserCompany,
  type UserInfo,
  type UserPowers,
} from '@coldchain/contract';
import { request } from './request';

/** The calls the console shell makes (docs/API.md); pages add their own next to them. */

export interface ClientConfig {
  productName: string;
  helpUrl: string;
  contact: { phone: string; email: string; address: string };
  version: string;
  /** Map tile template (MAP_TILE_URL); empty = markers on a plain grid. */
  mapTileUrl?: string;
  /** Where devices connect (openInterface page). */
  deviceMqttUrl?: string;
  deviceHttpUrl?: string;
}

/** `extra.code` answers an abnormal-login check (the answer was `{ needCode: true }`). */
export const doLogin = (
  account: string,
  password: string,
  extra: { code?: string; deviceId?: string } = {},
) =>
  request<LoginResult | LoginNeedsCode>('/api/doLogin', {
    account,
    password,
    type: LoginType.Password,
    platform: Platform.Web,
    ...extra,
  });

export const logout = () => request<null>('/api/logout');
export const fetchUserInfo = () => request<UserInfo>('/api/user/userInfo');
export const fetchUserCompanies = () => request<UserCompany[]>('/api/index/getUserCompanys');
export const switchUserCompany = (id: string) => request<null>('/api/index/switchUserCompany', { id });
export const fetchUserPowers = () => request<UserPowers>('/api/index/getUserPowers');
export const fetchUnreadNotices = () => request<{ count: number }>('/api/user/newUserNotice');
/** Images are the paths `/api/device/addCalibrationImg` returned, comma-joined (spec section 3). */
export const addFeedback = (body: Omit<AddFeedbackRequest, 'imgUrl' | 'source'>, images: string[] = []) =>
  request<{ id: string }>('/api/user/addFeedback', { ...body, imgUrl: images.join(','), source: 1 });
export const FEEDBACK_LIST_PATH = '/api/user/pageFeedback';
/** The caller's own feedback, newest first (the "Feedback" tab of the personal centre). */
export const fetchSentFeedback = (body: { pageNum: number; pageSize: number }) =>
  request<Page<FeedbackView>>(FEEDBACK_LIST_PATH, body);
/** Query key of the sent-feedback pages; sending one refreshes them. */
export const SENT_FEEDBACK_KEY = ['personal', 'feedback'] as const;
export const fetchClientConfig = () => request<ClientConfig>('/api/system/clientConfig');
export const fetchEncryptionUser = () => request<{ ticket: string }>('/api/datav/getEncryptionUser');

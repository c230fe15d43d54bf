import {
  type AddFeedbackRequest,
  type LoginResult,
  LoginType,
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
}

export const doLogin = (account: string, password: string) =>
  request<LoginResult>('/api/doLogin', {
    account,
    password,
    type: LoginType.Password,
    platform: Platform.Web,
  });

export const logout = () => request<null>('/api/logout');
export const fetchUserInfo = () => request<UserInfo>('/api/user/userInfo');
export const fetchUserCompanies = () => request<UserCompany[]>('/api/index/getUserCompanys');
export const switchUserCompany = (id: string) => request<null>('/api/index/switchUserCompany', { id });
export const fetchUserPowers = () => request<UserPowers>('/api/index/getUserPowers');
export const fetchUnreadNotices = () => request<{ count: number }>('/api/user/newUserNotice');
export const addFeedback = (body: Omit<AddFeedbackRequest, 'imgUrl' | 'source'>) =>
  request<{ id: string }>('/api/user/addFeedback', { ...body, imgUrl: '', source: 1 });
export const fetchClientConfig = () => request<ClientConfig>('/api/system/clientConfig');
export const fetchEncryptionUser = () => request<{ ticket: string }>('/api/datav/getEncryptionUser');

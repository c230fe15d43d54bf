import {
  type InternationalAreaCode,
  type LoginResult,
  LoginType,
  Platform,
  type QrPollResult,
  type QrTicket,
} from '@coldchain/contract';
import { request } from '../../api/request';

/** Calls of the public account pages (docs/API.md "Login security", "Register"). */

export const fetchAreaCodes = () => request<InternationalAreaCode[]>('/api/getInternationalAreaCode');
export const sendRegisterCode = (account: string) =>
  request<{ channel: 'email' | 'sms' }>('/api/register/getPhoneCode', { account });
export const registerAccount = (body: { account: string; code: string; password: string; name?: string }) =>
  request<{ id: string }>('/api/register/registerAccount', body);

export const verifyAccount = (account: string) =>
  request<{ exists: true }>('/api/verifyAccount', { account });
export const sendResetCode = (account: string) =>
  request<{ channel: 'email' | 'sms' }>('/api/getAccountCode', { account });
export const checkResetCode = (account: string, code: string) =>
  request<{ ticket: string }>('/api/checkCode', { account, code });
export const resetPassword = (body: {
  account: string;
  ticket: string;
  password: string;
  confirmPassword: string;
}) => request<null>('/api/resetPassword', body);

export const updatePassword = (body: { oldPassword: string; password: string; confirmPassword: string }) =>
  request<{ loggedOut: boolean }>('/api/user/updatePassword', body);

export const createQrTicket = () => request<QrTicket>('/api/qrLogin/createTicket');
export const pollQrTicket = (ticket: string) => request<QrPollResult>('/api/qrLogin/pollTicket', { ticket });
export const scanQrTicket = (ticket: string) =>
  request<{ expireTime: number }>('/api/qrLogin/scanTicket', { ticket });
export const confirmQrTicket = (ticket: string) => request<null>('/api/qrLogin/confirmTicket', { ticket });

export const loginWithAddressCode = (code: string) =>
  request<LoginResult>('/api/doLoginCode', {
    account: code,
    type: LoginType.AddressCode,
    platform: Platform.Web,
  });

/** A stable id of this browser for the abnormal-login check; it survives logout on purpose. */
export function deviceId(): string {
  const key = 'deviceId';
  let id = localStorage.getItem(key);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(key, id);
  }
  return id;
}

export const sendLoginCode = (account: string) =>
  request<{ channel: 'email' | 'sms' }>('/api/sendCode', { account });
export const loginWithCode = (account: string, code: string) =>
  request<LoginResult>('/api/doLogin', {
    account,
    code,
    type: LoginType.Code,
    platform: Platform.Web,
    deviceId: deviceId(),
  });

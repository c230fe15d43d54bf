import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { envelope } from '../test/fake-server';
import {
  configureRequest,
  filenameFrom,
  INVITE_JOIN_PATH,
  RequestError,
  request,
  resetRequestHooks,
} from './request';

const navigate = vi.fn();
const notify = vi.fn();
const onSessionEnded = vi.fn();
const onLoggedOn = vi.fn();

function answer(response: Response | (() => never)) {
  const fetchMock = vi.fn(async () => {
    if (typeof response === 'function') return response();
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function httpStatus(status: number) {
  return new Response(JSON.stringify({ msgCode: status, msgContent: 'server text', data: null }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('en');
  configureRequest({
    navigate,
    notify,
    onSessionEnded,
    onLoggedOn,
    currentPath: () => '/alarm/alarmInfo?x=1',
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  resetRequestHooks();
});

describe('request headers (spec section 7)', () => {
  it('sends language, platform, accessToken and companyId when stored', async () => {
    localStorage.setItem('accessToken', 'tok');
    localStorage.setItem('companyId', 'c9');
    await i18n.changeLanguage('zh-CN');
    const fetchMock = answer(envelope({ ok: 1 }));
    await request('/api/user/userInfo', { a: 1 });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/user/userInfo');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({
      language: 'cn',
      platform: '1',
      accessToken: 'tok',
      companyId: 'c9',
    });
  });

  it('leaves accessToken and companyId out when nothing is stored, and says en for English', async () => {
    const fetchMock = answer(envelope(null));
    await request('/api/system/clientConfig');
    const headers = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<
      string,
      string
    >;
    expect(headers.language).toBe('en');
    expect(headers).not.toHaveProperty('accessToken');
    expect(headers).not.toHaveProperty('companyId');
  });
});

describe('envelope msgCodes (spec section 8)', () => {
  it('no msgCode: returns the body as is', async () => {
    answer(new Response('{"list":[1,2]}', { headers: { 'Content-Type': 'application/json' } }));
    await expect(request('/api/x')).resolves.toEqual({ list: [1, 2] });
    expect(notify).not.toHaveBeenCalled();
  });

  it('no msgCode, file response: returns the blob and the filename of Content-Disposition', async () => {
    answer(
      new Response('a,b\n1,2', {
        headers: {
          'Content-Type': 'application/vnd.ms-excel',
          'Content-Disposition': "attachment; filename*=UTF-8''login%20log.xlsx",
        },
      }),
    );
    const file = await request<{ blob: Blob; filename: string }>('/api/userLoginLog/exportUserLog');
    expect(file.filename).toBe('login log.xlsx');
    expect(await file.blob.text()).toBe('a,b\n1,2');
    expect(filenameFrom('attachment; filename="r.pdf"')).toBe('r.pdf');
  });

  it('200: returns data only', async () => {
    answer(envelope({ id: 'x' }));
    await expect(request('/api/user/addFeedback')).resolves.toEqual({ id: 'x' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('301: shows the message, stores the new token and goes to /updatePassword', async () => {
    localStorage.setItem('accessToken', 'old');
    answer(envelope({ accessToken: 'new-token' }, 301, 'Please change your password'));
    await expect(request('/api/index/switchUserCompany', { id: 'c2' })).rejects.toBeInstanceOf(RequestError);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ content: 'Please change your password' }));
    expect(localStorage.getItem('accessToken')).toBe('new-token');
    expect(navigate).toHaveBeenCalledWith('/updatePassword');
  });

  it('500: shows the message as an error and rejects', async () => {
    answer(envelope(null, 500, 'Account or password is incorrect'));
    const error = await request('/api/doLogin').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe('Account or password is incorrect');
    expect(notify).toHaveBeenCalledWith({
      type: 'error',
      content: 'Account or password is incorrect',
      duration: 5,
    });
  });

  it('500 on the invite-join call: shows the message and returns true', async () => {
    answer(envelope(null, 500, 'Already a member'));
    await expect(request(INVITE_JOIN_PATH, { id: '1' })).resolves.toBe(true);
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'error', content: 'Already a member' }),
    );
  });

  it('311: clears the session but the signature flag, shows the message, goes to /login with a redirect', async () => {
    for (const [k, v] of Object.entries({
      accessToken: 't',
      companyId: 'c1',
      authTags: '["a"]',
      reqId: '1',
      grade: '2',
      alarmId: '3',
      signPasswordSet: '1',
    })) {
      localStorage.setItem(k, v);
    }
    answer(envelope(null, 311, 'Login expired'));
    await expect(request('/api/user/userInfo')).rejects.toBeInstanceOf(RequestError);
    for (const key of ['accessToken', 'companyId', 'authTags', 'reqId', 'grade', 'alarmId']) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    expect(localStorage.getItem('signPasswordSet')).toBe('1');
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'error', content: 'Login expired' }));
    expect(navigate).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/alarm/alarmInfo?x=1')}`);
    expect(onSessionEnded).toHaveBeenCalled();
  });

  it('311 on the invite-join call: logs out without a message', async () => {
    localStorage.setItem('accessToken', 't');
    answer(envelope(null, 311, 'Login expired'));
    const error = (await request(INVITE_JOIN_PATH).catch((e: unknown) => e)) as RequestError;
    expect(error.shown).toBe(false);
    expect(notify).not.toHaveBeenCalled();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?redirect=/));
  });

  it('300: marks the user as logged on and goes to /', async () => {
    answer(envelope(null, 300, 'Already logged on'));
    await request('/api/doLogin');
    expect(onLoggedOn).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('other msgCode: shows the message followed by the request path', async () => {
    answer(envelope(null, 999, 'Strange answer'));
    await expect(request('/api/device/setRemark')).rejects.toBeInstanceOf(RequestError);
    expect(notify).toHaveBeenCalledWith({
      type: 'error',
      content: 'Strange answer /api/device/setRemark',
      duration: 5,
    });
  });
});

const httpTexts: Array<[number, string, string]> = [
  [400, 'Request error', '请求错误'],
  [404, 'Request address error: /api/nowhere', '请求地址出错：/api/nowhere'],
  [408, 'Request timeout', '请求超时'],
  [429, 'Too many requests, try again later', '请求过于频繁，请稍后再试'],
  [500, 'Internal server error', '服务器内部错误'],
  [501, 'Service not implemented', '服务未实现'],
  [502, 'Bad gateway', '网关错误'],
  [503, 'Service unavailable', '服务不可用'],
  [504, 'Gateway timeout', '网关超时'],
  [505, 'HTTP version not supported', 'HTTP 版本不受支持'],
];

describe('HTTP errors (spec section 8): a 5-second toast in the current language', () => {
  for (const [status, en, zh] of httpTexts) {
    it(`${status}: '${en}' / '${zh}'`, async () => {
      for (const [language, text] of [
        ['en', en],
        ['zh-CN', zh],
      ] as const) {
        await i18n.changeLanguage(language);
        notify.mockClear();
        answer(httpStatus(status));
        const error = (await request('/api/nowhere').catch((e: unknown) => e)) as RequestError;
        expect(error).toBeInstanceOf(RequestError);
        expect(error.status).toBe(status);
        expect(notify).toHaveBeenCalledTimes(1);
        expect(notify).toHaveBeenCalledWith({ type: 'error', content: text, duration: 5 });
      }
      expect(navigate).not.toHaveBeenCalled();
    });
  }

  it('a network failure shows a clear toast in both languages', async () => {
    for (const [language, text] of [
      ['en', 'Network error: the server cannot be reached, check your connection'],
      ['zh-CN', '网络错误：无法连接服务器，请检查网络'],
    ] as const) {
      await i18n.changeLanguage(language);
      notify.mockClear();
      answer(() => {
        throw new TypeError('Failed to fetch');
      });
      await expect(request('/api/user/userInfo')).rejects.toBeInstanceOf(RequestError);
      expect(notify).toHaveBeenCalledWith({ type: 'error', content: text, duration: 5 });
    }
  });
});

import {
  buildMenuEntries,
  MENU_TREE,
  ServiceAuthTags,
  type UserCompany,
  type UserInfo,
} from '@coldchain/contract';
import { vi } from 'vitest';

/** A stand-in for the server in component tests: answers by path with an envelope. */
export type Handler = (body: Record<string, unknown>) => unknown;

export function envelope(data: unknown, msgCode = 200, msgContent = 'success'): Response {
  return new Response(JSON.stringify({ msgCode, msgContent, data }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

export const demoUser: UserInfo = {
  id: 'u1',
  relName: 'Demo Admin',
  account: 'demo@example.com',
  headImg: '',
  signCheck: false,
  exportExcel: true,
  dataViewPath: '',
  pcAlarmVoice: false,
  lastCompanyId: 'c1',
  legalPerson: true,
  unreadNoticeCount: 0,
  isOperator: false,
};

export const demoCompanies: UserCompany[] = [
  { id: 'c1', name: 'Demo Cold Chain', industry: 'food', address: '', isAdmin: true, current: true },
  { id: 'c2', name: 'Second Company', industry: 'pharma', address: '', isAdmin: false, current: false },
];

const allTags = new Set(
  MENU_TREE.flatMap(function tags(d): string[] {
    return [d.authTag ?? '', d.serviceTag ?? '', ...(d.children ?? []).flatMap(tags)];
  }),
);

export function demoPowers(extraTags: string[] = ['data:view']) {
  const tags = new Set([...allTags, ...extraTags]);
  return {
    menus: buildMenuEntries(tags, tags),
    authTags: [...tags].filter(Boolean),
    serviceAuthTags: [...ServiceAuthTags] as string[],
  };
}

export interface FakeServerOptions {
  user?: Partial<UserInfo>;
  authTags?: string[];
  notices?: number;
  overrides?: Record<string, Handler | Response>;
}

/** Stubs global fetch; returns the mock so tests can inspect calls. */
export function stubServer(options: FakeServerOptions = {}) {
  const handlers: Record<string, Handler> = {
    '/api/doLogin': () => ({ accessToken: 'token-1', expireTime: Date.now() + 3_600_000 }),
    '/api/logout': () => null,
    '/api/user/userInfo': () => ({ ...demoUser, ...options.user }),
    '/api/index/getUserCompanys': () => demoCompanies,
    '/api/index/getUserPowers': () => demoPowers(options.authTags),
    '/api/user/newUserNotice': () => ({ count: options.notices ?? 0 }),
    '/api/system/clientConfig': () => ({
      productName: 'ColdChain',
      helpUrl: 'https://help.example.com',
      contact: { phone: '+60 3 1234', email: 'support@example.com', address: '' },
      version: '0.1.0',
    }),
    '/api/index/switchUserCompany': () => null,
    '/api/user/addFeedback': () => ({ id: 'f1' }),
    '/api/datav/getEncryptionUser': () => ({ ticket: 'tkt' }),
    // The monitor detail's parameters panel asks for the latest parameter request.
    '/api/device/parameterState': () => null,
    // ... and its calibration panel for the device's records.
    '/api/device/pageCalibrations': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
    '/api/loginSecurity/getPasswordRenewal': () => ({ enabled: false, days: 90 }),
    // The home page's company card and alarm chart.
    '/api/userOrganize/companyDataInfo': () => ({
      companyId: 'c1',
      companyName: 'Demo Cold Chain',
      departmentCount: 0,
      memberCount: 0,
      deviceCount: 0,
      deviceStates: {},
      alarmsToday: 0,
      pendingAlarms: 0,
      equipmentStates: null,
    }),
    '/api/userOrganize/indexChartForStatistics': () => ({ days: [] }),
    // Equipment screens (pages/equipment): empty lists until a test gives its own.
    '/api/equipmentType/pageTypes': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    '/api/equipment/pageEquipment': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    '/api/equipment/pageRecords': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    '/api/equipment/pagePatrolPlans': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    '/api/equipment/pagePatrolRounds': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    '/api/equipment/sensorOptions': () => [],
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    // Uploads send multipart: handlers then see the form fields (files as File objects).
    const body =
      init?.body instanceof FormData
        ? Object.fromEntries(init.body.entries())
        : init?.body
          ? (JSON.parse(String(init.body)) as Record<string, unknown>)
          : {};
    const override = options.overrides?.[path];
    if (override instanceof Response) return override.clone();
    if (override) return envelope(override(body));
    const handler = handlers[path];
    if (!handler) return new Response('{"msgCode":404}', { status: 404 });
    return envelope(handler(body));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The JSON body the console sent to `path` (the first such call). */
export function sentBody(fetchMock: ReturnType<typeof stubServer>, path: string): unknown {
  const call = fetchMock.mock.calls.find(([input]) => String(input) === path);
  if (!call) throw new Error(`no call to ${path}`);
  return JSON.parse(String(call[1]?.body));
}

export function calledPaths(fetchMock: ReturnType<typeof stubServer>): string[] {
  return fetchMock.mock.calls.map(([input]) => String(input));
}

import {
  AuthTags,
  buildMenuEntries,
  type DepartmentDetail,
  type DepartmentNode,
  type JoinRequestView,
  type MemberView,
  type RoleView,
  ServiceAuthTags,
} from '@coldchain/contract';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { stubServer } from '../../test/fake-server';

// Dialogs and refreshes after a change can take a few seconds on a busy machine; each test
// file has its own module state, so this longer wait stays within the org tests.
configure({ asyncUtilTimeout: 5_000 });

export function department(overrides: Partial<DepartmentNode> = {}): DepartmentNode {
  return {
    id: '10',
    pid: '0',
    code: '100000000001',
    name: 'Demo Cold Chain',
    level: 1,
    leaderId: '1',
    leaderName: 'Demo Admin',
    address: 'Kuala Lumpur',
    imageUrl: '',
    memberCount: 3,
    deviceCount: 5,
    subtreeDeviceCount: 8,
    children: [],
    ...overrides,
  };
}

/** The company root with a pharmacy and, below it, a cold room. */
export const tree: DepartmentNode[] = [
  department({
    children: [
      department({
        id: '11',
        pid: '10',
        code: '100000000002',
        name: 'Pharmacy',
        level: 2,
        leaderId: '2',
        leaderName: 'Lee Wei',
        memberCount: 2,
        deviceCount: 2,
        subtreeDeviceCount: 3,
        children: [
          department({
            id: '12',
            pid: '11',
            code: '100000000003',
            name: 'Cold room',
            level: 3,
            leaderId: null,
            leaderName: '',
            memberCount: 0,
            deviceCount: 1,
            subtreeDeviceCount: 1,
          }),
        ],
      }),
    ],
  }),
];

export function detail(overrides: Partial<DepartmentDetail> = {}): DepartmentDetail {
  const { children: _children, ...node } = department({
    id: '11',
    pid: '10',
    name: 'Pharmacy',
    code: '100000000002',
    leaderName: 'Lee Wei',
    level: 2,
  });
  return {
    ...node,
    parentName: 'Demo Cold Chain',
    companyName: 'Demo Cold Chain',
    editable: true,
    ...overrides,
  };
}

export function member(overrides: Partial<MemberView> = {}): MemberView {
  return {
    userId: '2',
    name: 'Lee Wei',
    account: 'lee@example.com',
    phone: '+60123456789',
    email: 'lee@example.com',
    departmentId: '11',
    departmentName: 'Pharmacy',
    roleId: '21',
    roleName: 'Pharmacist',
    isAdmin: false,
    legalPerson: false,
    isLeader: true,
    joinTime: Date.UTC(2025, 0, 2, 3, 4, 5),
    lastLoginTime: null,
    exportExcel: true,
    ...overrides,
  };
}

export function role(overrides: Partial<RoleView> = {}): RoleView {
  return {
    id: '21',
    departmentId: '11',
    name: 'Pharmacist',
    isDepartmentAdmin: false,
    userCount: 2,
    tags: ['device:view', 'device:edit', 'alarm:view'],
    ...overrides,
  };
}

export function joinRequest(overrides: Partial<JoinRequestView> = {}): JoinRequestView {
  return {
    id: '31',
    userId: '5',
    userName: 'Tan Mei',
    account: 'tan@example.com',
    departmentId: '11',
    departmentName: 'Pharmacy',
    remark: 'New nurse',
    state: 1,
    createTime: Date.UTC(2025, 5, 1, 8, 0, 0),
    decidedTime: null,
    ...overrides,
  };
}

/** The fake server's per-path answers. */
export type Overrides = NonNullable<Parameters<typeof stubServer>[0]>['overrides'];

export const page = <T>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

/** `/api/index/getUserPowers` for a user holding every tag except `without`. */
export function powersWithout(without: string[]) {
  const tags = new Set<string>([...AuthTags, ...ServiceAuthTags].filter((tag) => !without.includes(tag)));
  return () => ({ menus: buildMenuEntries(tags, tags), authTags: [...tags], serviceAuthTags: [] });
}

/** Every tag (the fake server's default lacks the edit tags no menu entry needs). */
export const allPowers = powersWithout([]);

export function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

/** Picks an option of an antd Select or TreeSelect found by its test id. */
export async function choose(testId: string, option: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const matches = await screen.findAllByTitle(option);
  await userEvent.click(matches.at(-1)!);
}

/** Confirms the open Popconfirm. */
export async function confirmPopup() {
  const popup = await screen.findByRole('tooltip');
  await userEvent.click(within(popup).getByRole('button', { name: /confirm/i }));
}

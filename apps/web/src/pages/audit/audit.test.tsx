import type { ChainVerification, LoginLogEntry, OperationLogEntry } from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { fieldChanges } from './format';

const TIME = Date.UTC(2025, 5, 1, 8, 0, 0);

function loginEntry(overrides: Partial<LoginLogEntry> = {}): LoginLogEntry {
  return {
    id: '1',
    userId: '7',
    account: 'lin@example.com',
    userName: 'Lin Wei',
    platform: 1,
    method: 'password',
    status: 1,
    reason: '',
    ip: '10.0.0.5',
    location: 'Local network',
    time: TIME,
    ...overrides,
  };
}

function operationEntry(overrides: Partial<OperationLogEntry> = {}): OperationLogEntry {
  return {
    id: '11',
    seq: 3,
    userId: '7',
    userName: 'Lin Wei',
    action: 'device.setRemark',
    targetType: 'device',
    targetId: '1024',
    before: { remark: 'Old seal', name: 'Fridge' },
    after: { remark: 'Door seal replaced', name: 'Fridge' },
    reason: '',
    ip: '10.0.0.5',
    time: TIME,
    ...overrides,
  };
}

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function fileAnswer(name: string) {
  return new Response('a,b\r\n', {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="x.csv"; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });
}

async function choose(testId: string, option: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const matches = await screen.findAllByTitle(option);
  await userEvent.click(matches.at(-1)!);
}

/** Catches the download the page starts (jsdom has no object URLs and does not navigate). */
function catchDownloads() {
  const saved: string[] = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('login log', () => {
  const logins = [
    loginEntry(),
    loginEntry({
      id: '2',
      status: 0,
      reason: 'wrong password',
      platform: 2,
      method: 'code',
      location: 'Unknown',
    }),
  ];

  it('lists user, platform, method, time, status, IP and location of the company’s logins', async () => {
    const server = stubServer({ overrides: { '/api/userLoginLog/auditPageUserLog': () => page(logins) } });
    renderApp('/audit/loginLog');
    const ok = await screen.findByTestId('login-row-1');
    expect(ok).toHaveTextContent('Lin Wei');
    expect(ok).toHaveTextContent('lin@example.com');
    expect(ok).toHaveTextContent('Web console');
    expect(ok).toHaveTextContent('Password');
    expect(within(ok).getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    expect(within(ok).getByTestId('login-status')).toHaveTextContent('Success');
    expect(ok).toHaveTextContent('10.0.0.5');
    expect(ok).toHaveTextContent('Local network');
    const failed = screen.getByTestId('login-row-2');
    expect(within(failed).getByTestId('login-status')).toHaveTextContent('FailureWrong password');
    expect(failed).toHaveTextContent('Mobile app');
    expect(failed).toHaveTextContent('Verification code');
    expect(bodies(server, '/api/userLoginLog/auditPageUserLog')[0]).toEqual({ pageNum: 1, pageSize: 20 });
  });

  it('filters by user, status and time, and switches to one’s own logins', async () => {
    const server = stubServer({
      overrides: {
        '/api/userLoginLog/auditPageUserLog': () => page(logins),
        '/api/userLoginLog/pageUserLog': () => page([loginEntry({ id: '9' })]),
      },
    });
    renderApp('/audit/loginLog');
    await screen.findByTestId('login-row-1');
    const search = within(screen.getByTestId('login-filter-user').closest('.ant-input-search')!).getByRole(
      'searchbox',
    );
    await userEvent.type(search, 'lin{Enter}');
    await waitFor(() =>
      expect(bodies(server, '/api/userLoginLog/auditPageUserLog').at(-1)).toEqual({
        pageNum: 1,
        pageSize: 20,
        account: 'lin',
      }),
    );
    await choose('login-filter-status', 'Failure');
    await waitFor(() =>
      expect(bodies(server, '/api/userLoginLog/auditPageUserLog').at(-1)).toMatchObject({
        account: 'lin',
        status: 0,
      }),
    );
    const [start, end] = screen.getAllByTestId('login-filter-time');
    await userEvent.click(start!);
    await userEvent.type(start!, '2025-06-01 00:00:00{Enter}');
    await userEvent.type(end!, '2025-06-02 00:00:00{Enter}');
    await waitFor(() => {
      const last = bodies(server, '/api/userLoginLog/auditPageUserLog').at(-1)!;
      expect(last.startTime).toBe(new Date(2025, 5, 1, 0, 0, 0).getTime());
      expect(last.endTime).toBe(new Date(2025, 5, 2, 0, 0, 0).getTime());
    });
    await userEvent.click(screen.getByText('My logins'));
    expect(await screen.findByTestId('login-row-9')).toBeInTheDocument();
    expect(bodies(server, '/api/userLoginLog/pageUserLog').at(-1)).toMatchObject({
      account: 'lin',
      status: 0,
    });
  });

  it('opens the export on the last 24 hours, needs a format, and saves the file the server names', async () => {
    const saved = catchDownloads();
    const server = stubServer({
      authTags: ['audit:export'],
      overrides: {
        '/api/userLoginLog/auditPageUserLog': () => page(logins),
        '/api/userLoginLog/auditExportUserLog': fileAnswer('Login log-20250601-20250602.csv'),
      },
    });
    renderApp('/audit/loginLog');
    await screen.findByTestId('login-row-1');
    await userEvent.click(screen.getByTestId('login-export'));
    await userEvent.click(await screen.findByTestId('audit-export-submit'));
    // Each field's message renders on its own: wait for it rather than expect it in the same frame.
    expect(await screen.findByText('Select a file format')).toBeInTheDocument();
    // The period is filled in already (issue 20): no "select a period" message.
    expect(screen.queryByText('Select at least one device, time period or record')).toBeNull();
    expect(bodies(server, '/api/userLoginLog/auditExportUserLog')).toEqual([]);

    const opened = Date.now();
    await userEvent.click(screen.getByLabelText('CSV (.csv)'));
    await userEvent.click(screen.getByTestId('audit-export-submit'));
    await waitFor(() => expect(bodies(server, '/api/userLoginLog/auditExportUserLog')).toHaveLength(1));
    const body = bodies(server, '/api/userLoginLog/auditExportUserLog')[0]!;
    expect(body).toEqual({
      startTime: expect.any(Number),
      endTime: expect.any(Number),
      format: 'csv',
      timeZone: expect.any(String),
      // The id the dialog asks /api/export/progress about while it waits.
      progressId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // The whole seconds of the picker: 24 hours ending when the dialog opened.
    expect((body.endTime as number) - (body.startTime as number)).toBe(24 * 3_600_000);
    expect(Math.abs((body.endTime as number) - opened)).toBeLessThan(60_000);
    await waitFor(() => expect(saved).toEqual(['Login log-20250601-20250602.csv']));
  });

  it('offers the company-wide export only with audit:export', async () => {
    stubServer({ overrides: { '/api/userLoginLog/auditPageUserLog': () => page(logins) } });
    renderApp('/audit/loginLog');
    await screen.findByTestId('login-row-1');
    expect(screen.queryByTestId('login-export')).toBeNull();
    // One's own history may always be taken away.
    await userEvent.click(screen.getByText('My logins'));
    expect(await screen.findByTestId('login-export')).toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    stubServer({ overrides: { '/api/userLoginLog/auditPageUserLog': () => page(logins) } });
    await i18n.changeLanguage('zh-CN');
    renderApp('/audit/loginLog');
    const failed = await screen.findByTestId('login-row-2');
    expect(within(failed).getByTestId('login-status')).toHaveTextContent('失败密码错误');
    expect(failed).toHaveTextContent('移动端');
    expect(screen.getByTestId('page-title')).toHaveTextContent('登录日志');
  });
});

describe('operation log', () => {
  it('shows who did what to which target, when, from where, with old and new values', async () => {
    stubServer({
      overrides: {
        '/api/personnel/memberOptions': () => [],
        '/api/audit/pageOperationLog': () =>
          page([
            operationEntry(),
            operationEntry({
              id: '10',
              seq: 2,
              userId: null,
              userName: '',
              action: 'role.add',
              targetType: 'role',
              targetId: '5',
              before: null,
              after: { name: 'Auditor' },
              reason: 'New hire',
            }),
          ]),
      },
    });
    renderApp('/audit/operationLog');
    const row = await screen.findByTestId('operation-row-3');
    expect(row).toHaveTextContent('Lin Wei');
    expect(within(row).getByTestId('operation-action')).toHaveTextContent('Set device remark');
    expect(row).toHaveTextContent('Device 1024');
    expect(row).toHaveTextContent('10.0.0.5');
    expect(within(row).getByTestId('operation-sentence')).toHaveTextContent(
      'Lin Wei changed the remark of monitor #1024',
    );
    const added = screen.getByTestId('operation-row-2');
    expect(added).toHaveTextContent('Platform (system)');
    expect(added).toHaveTextContent('Add role');
    expect(added).toHaveTextContent('Role 5');
    expect(added).toHaveTextContent('New hire');
    expect(within(added).getByTestId('operation-sentence')).toHaveTextContent(
      'Platform (system) added the role “Auditor”',
    );
    // The row opens to the fields that changed, named in words, old struck through, then new.
    await userEvent.click(within(row).getByRole('button', { name: /expand row/i }));
    const detail = await screen.findByTestId('operation-detail-3');
    expect(within(detail).getByTestId('diff-remark')).toHaveTextContent(
      'Remark: Old seal → Door seal replaced',
    );
    expect(within(detail).queryByTestId('diff-name')).toBeNull();
  });

  it('writes each entry as a sentence in Chinese, enums included, and never shows a raw key', async () => {
    stubServer({
      overrides: {
        '/api/personnel/memberOptions': () => [],
        '/api/audit/pageOperationLog': () =>
          page([
            operationEntry({
              seq: 4,
              id: '12',
              action: 'alarmSetting.edit',
              targetType: 'alarmSetting',
              targetId: '31',
              before: { alarmType: 'overLimit', max: 8, enabled: true },
              after: { alarmType: 'overLimit', max: 9, enabled: false },
            }),
            operationEntry({
              seq: 5,
              id: '13',
              action: 'brandNew.thing',
              targetType: 'device',
              targetId: '8',
            }),
          ]),
      },
    });
    await i18n.changeLanguage('zh-CN');
    renderApp('/audit/operationLog');
    const row = await screen.findByTestId('operation-row-4');
    expect(within(row).getByTestId('operation-sentence')).toHaveTextContent('Lin Wei编辑了超限报警设置 #31');
    expect(row).not.toHaveTextContent('overLimit');
    expect(row).not.toHaveTextContent('alarmType');
    await userEvent.click(within(row).getByRole('button', { name: /展开行|expand row/i }));
    const detail = await screen.findByTestId('operation-detail-4');
    expect(within(detail).getByTestId('diff-max')).toHaveTextContent('上限: 8 → 9');
    expect(within(detail).getByTestId('diff-enabled')).toHaveTextContent('启用: 是 → 否');
    // An action this console has no sentence for (a newer server) still reads as words.
    expect(within(screen.getByTestId('operation-row-5')).getByTestId('operation-sentence')).toHaveTextContent(
      'Lin Wei：brandNew.thing（设备 #8）',
    );
  });

  it('filters by action, target and time, and exports with the same filters', async () => {
    const saved = catchDownloads();
    const server = stubServer({
      authTags: ['audit:export'],
      overrides: {
        '/api/audit/pageOperationLog': () => page([operationEntry()]),
        '/api/personnel/memberOptions': () => [{ id: '7', name: 'Lin Wei' }],
        '/api/audit/exportOperationLog': fileAnswer('Operation log-20250601-20250602.xlsx'),
      },
    });
    renderApp('/audit/operationLog');
    await screen.findByTestId('operation-row-3');
    await choose('operation-filter-action', 'Add department');
    await waitFor(() =>
      expect(bodies(server, '/api/audit/pageOperationLog').at(-1)).toEqual({
        pageNum: 1,
        pageSize: 20,
        action: 'department.add',
      }),
    );
    await waitFor(() =>
      expect(server.mock.calls.some(([input]) => String(input) === '/api/personnel/memberOptions')).toBe(
        true,
      ),
    );
    await choose('operation-filter-operator', 'Lin Wei');
    await waitFor(() =>
      expect(bodies(server, '/api/audit/pageOperationLog').at(-1)).toMatchObject({ userId: '7' }),
    );
    const target = within(
      screen.getByTestId('operation-filter-target').closest('.ant-input-search')!,
    ).getByRole('searchbox');
    await userEvent.type(target, '1024{Enter}');
    const [start, end] = screen.getAllByTestId('operation-filter-time');
    await userEvent.click(start!);
    await userEvent.type(start!, '2025-06-01 00:00:00{Enter}');
    await userEvent.type(end!, '2025-06-02 00:00:00{Enter}');
    await waitFor(() =>
      expect(bodies(server, '/api/audit/pageOperationLog').at(-1)).toMatchObject({
        action: 'department.add',
        userId: '7',
        target: '1024',
        startTime: new Date(2025, 5, 1).getTime(),
      }),
    );
    // The dialog starts from the screen's period.
    await userEvent.click(screen.getByTestId('operation-export'));
    await userEvent.click(await screen.findByLabelText('Excel (.xlsx)'));
    await userEvent.click(screen.getByTestId('audit-export-submit'));
    await waitFor(() => expect(bodies(server, '/api/audit/exportOperationLog')).toHaveLength(1));
    expect(bodies(server, '/api/audit/exportOperationLog')[0]).toEqual({
      startTime: new Date(2025, 5, 1).getTime(),
      endTime: new Date(2025, 5, 2).getTime(),
      format: 'xlsx',
      timeZone: expect.any(String),
      action: 'department.add',
      userId: '7',
      target: '1024',
      progressId: expect.any(String),
    });
    await waitFor(() => expect(saved).toEqual(['Operation log-20250601-20250602.xlsx']));
  });
});

describe('integrity check', () => {
  it('says the chain is intact with the number of entries checked', async () => {
    const answer: ChainVerification = { ok: true, checked: 42, problems: [] };
    const server = stubServer({ overrides: { '/api/audit/verifyChain': () => answer } });
    renderApp('/audit/auditChain');
    await userEvent.click(await screen.findByTestId('chain-verify'));
    expect(await screen.findByTestId('chain-result')).toHaveTextContent(
      'The operation log is intact: 42 entries checked.',
    );
    expect(bodies(server, '/api/audit/verifyChain')).toHaveLength(1);
  });

  it('lists each edited entry and each gap with its position and time', async () => {
    const answer: ChainVerification = {
      ok: false,
      checked: 9,
      problems: [
        { seq: 3, kind: 'edited', detail: '', time: TIME },
        { seq: 6, kind: 'missing', detail: '', time: TIME, missingFrom: 5, missingTo: 5 },
        { seq: 9, kind: 'missing', detail: '', time: TIME, missingFrom: 7, missingTo: 8 },
      ],
    };
    stubServer({ overrides: { '/api/audit/verifyChain': () => answer } });
    renderApp('/audit/auditChain');
    await userEvent.click(await screen.findByTestId('chain-verify'));
    expect(await screen.findByTestId('chain-result')).toHaveTextContent(
      'The operation log has been tampered with: 3 problems found in 9 entries.',
    );
    const edited = screen.getByTestId('chain-problem-3-edited');
    expect(edited).toHaveTextContent('Edited: the entry no longer matches its hash');
    expect(within(edited).getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    expect(screen.getByTestId('chain-problem-6-missing')).toHaveTextContent('Entry No. 5 is missing');
    expect(screen.getByTestId('chain-problem-9-missing')).toHaveTextContent('Entries No. 7–8 are missing');
  });
});

describe('old -> new values', () => {
  it('lists only the fields that changed, and whole values that are not objects', () => {
    expect(fieldChanges({ a: 1, b: 'x' }, { a: 1, b: 'y', c: true })).toEqual([
      { field: 'b', before: 'x', after: 'y' },
      { field: 'c', before: '', after: 'true' },
    ]);
    expect(fieldChanges(null, null)).toEqual([]);
    expect(fieldChanges([1], [2])).toEqual([{ field: '', before: '[1]', after: '[2]' }]);
  });
});

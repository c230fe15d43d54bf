import type { ReportFileView, ReportRunView, ReportTaskView } from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const BACKUP = '/dataCenter/dataBackup';
const FILES = '/dataCenter/dataFiles';
const SLOW_MS = 40_000;
const T = Date.UTC(2026, 10, 20, 1);

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function task(fields: Partial<ReportTaskView> = {}): ReportTaskView {
  return {
    id: 't1',
    name: 'Fridge history',
    type: 'history',
    frequency: 'daily',
    format: 'csv',
    deviceIds: ['d1'],
    equipmentIds: [],
    recipientIds: [],
    emails: ['qa@example.com'],
    timeZone: 'Asia/Shanghai',
    nextRunTime: T + 86_400_000,
    createTime: T,
    ...fields,
  };
}

function run(fields: Partial<ReportRunView> = {}): ReportRunView {
  return {
    id: 'r1',
    taskId: 't1',
    taskName: 'Fridge history',
    status: 'done',
    startTime: T - 86_400_000,
    endTime: T,
    size: 1536,
    duration: 2300,
    error: null,
    fileName: 'history.csv',
    createTime: T,
    ...fields,
  };
}

function file(fields: Partial<ReportFileView> = {}): ReportFileView {
  return {
    id: 'f1',
    kind: 'backup.history',
    fileName: 'history.csv',
    size: 2048,
    fingerprint: 'ab'.repeat(32),
    fileSha256: 'ab'.repeat(32),
    generatedAt: T,
    generatedBy: 'Backup task "Fridge history"',
    stored: true,
    ...fields,
  };
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(
  overrides: NonNullable<Parameters<typeof stubServer>[0]>['overrides'] = {},
  authTags = ['data:view', 'backup:edit'],
) {
  return stubServer({
    authTags,
    overrides: {
      '/api/report/pageTasks': () => page([task()]),
      '/api/report/pageRuns': (body) =>
        page(
          body.taskId
            ? [run()]
            : [
                run(),
                run({ id: 'r2', status: 'failed', size: null, fileName: null, error: 'Too many rows' }),
              ],
        ),
      '/api/report/saveTask': () => ({ id: 't2' }),
      '/api/report/runTask': () => ({ runId: 'r3' }),
      '/api/report/deleteTask': () => null,
      '/api/personnel/memberOptions': () => [{ id: 'u7', name: 'Quality Manager' }],
      '/api/device/pageDevices': (body) =>
        page(
          [
            { id: 'd1', serial: 'SN001', name: 'Vaccine fridge' },
            { id: 'd2', serial: 'SN002', name: 'Blood bank' },
          ].filter((d) => !body.keyword || d.name.toLowerCase().includes(String(body.keyword).toLowerCase())),
        ),
      '/api/dataCenter/pageFiles': () =>
        page([file(), file({ id: 'f2', kind: 'alarm.export', fileName: 'alarms.pdf', stored: false })]),
      '/api/report/verifyReport': (body) =>
        body.sha256 === 'ab'.repeat(32)
          ? { found: true, fileName: 'history.csv', generatedAt: T, generatedBy: 'Quality Manager' }
          : { found: false, fileName: null, generatedAt: null, generatedBy: null },
      ...overrides,
    },
  });
}

async function pick(testId: string, title: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  await userEvent.click(await screen.findByTitle(title));
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('data report backup tasks', () => {
  it(
    'lists tasks and creates a daily task with devices found by search, users and addresses',
    async () => {
      const server = serve();
      renderApp(BACKUP);
      const row = await screen.findByTestId('task-row-t1');
      expect(within(row).getByText('History data')).toBeInTheDocument();
      expect(within(row).getByText('Daily, 3 am')).toBeInTheDocument();
      expect(within(row).getByText('1 device')).toBeInTheDocument();

      await userEvent.click(screen.getByTestId('task-add-open'));
      await userEvent.click(await screen.findByTestId('task-save'));
      expect(await screen.findByText('Enter the task name')).toBeInTheDocument();
      expect(screen.getByText('Select at least one device')).toBeInTheDocument();
      expect(screen.getByText('Add at least one recipient or e-mail address')).toBeInTheDocument();

      await userEvent.type(screen.getByTestId('task-name'), 'Blood bank nightly');
      const devices = within(screen.getByTestId('task-devices')).getByRole('combobox');
      fireEvent.mouseDown(devices);
      await userEvent.type(devices, 'blood');
      await waitFor(() =>
        expect(bodies(server, '/api/device/pageDevices').at(-1)).toMatchObject({ keyword: 'blood' }),
      );
      await userEvent.click(await screen.findByTitle('Blood bank (SN002)'));
      await pick('task-recipients', 'Quality Manager');
      const emails = within(screen.getByTestId('task-emails')).getByRole('combobox');
      await userEvent.type(emails, 'not-an-address{enter}');
      await userEvent.click(screen.getByTestId('task-format-pdf'));
      await userEvent.click(screen.getByTestId('task-save'));
      expect(await screen.findByText('not-an-address is not a valid e-mail address')).toBeInTheDocument();
      expect(bodies(server, '/api/report/saveTask')).toEqual([]);
      await userEvent.click(within(screen.getByTestId('task-emails')).getByLabelText('close'));
      await userEvent.type(emails, 'qa@hospital.example{enter}');
      await userEvent.click(screen.getByTestId('task-save'));
      await waitFor(() => expect(bodies(server, '/api/report/saveTask')).toHaveLength(1));
      expect(bodies(server, '/api/report/saveTask')[0]).toEqual({
        name: 'Blood bank nightly',
        type: 'history',
        frequency: 'daily',
        format: 'pdf',
        deviceIds: ['d2'],
        equipmentIds: [],
        recipientIds: ['u7'],
        emails: ['qa@hospital.example'],
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
    },
    SLOW_MS,
  );

  it(
    "runs a task now and shows its runs; lists every task's runs with status, size, duration and error",
    async () => {
      const server = serve();
      renderApp(BACKUP);
      await userEvent.click(await screen.findByTestId('task-run-t1'));
      await waitFor(() => expect(bodies(server, '/api/report/runTask')).toEqual([{ id: 't1' }]));
      const drawer = await screen.findByTestId('runs-table-t1');
      const done = await within(drawer).findByTestId('run-row-r1');
      expect(within(done).getByText('Done')).toBeInTheDocument();
      expect(within(done).getByText('1.5 KB')).toBeInTheDocument();
      expect(within(done).getByText('2.3 s')).toBeInTheDocument();
      expect(bodies(server, '/api/report/pageRuns').at(-1)).toEqual({
        pageNum: 1,
        pageSize: 20,
        taskId: 't1',
      });
      await userEvent.click(within(done).getByTestId('run-download-r1'));
      await waitFor(() => expect(bodies(server, '/api/report/downloadRun')).toEqual([{ id: 'r1' }]));
      await userEvent.click(screen.getByRole('button', { name: 'Close' }));

      await userEvent.click(screen.getByRole('tab', { name: 'All runs' }));
      const failed = await screen.findByTestId('run-row-r2');
      expect(within(failed).getByText('Failed')).toBeInTheDocument();
      expect(within(failed).getByText('Too many rows')).toBeInTheDocument();
      expect(within(failed).queryByTestId('run-download-r2')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'deletes a task only after confirming, and shows a failed list with a retry',
    async () => {
      let fail = true;
      const server = serve({
        // The server cannot be reached until `fail` is cleared.
        '/api/report/pageTasks': () => {
          if (fail) throw new TypeError('Failed to fetch');
          return page([task()]);
        },
      });
      renderApp(BACKUP);
      expect(await screen.findByTestId('tasks-error')).toHaveTextContent('The list could not be loaded.');
      fail = false;
      await userEvent.click(within(screen.getByTestId('tasks-error')).getByRole('button', { name: /Retry/ }));
      await userEvent.click(await screen.findByTestId('task-delete-t1'));
      expect(bodies(server, '/api/report/deleteTask')).toEqual([]);
      await userEvent.click(await screen.findByTestId('task-delete-confirm'));
      await waitFor(() => expect(bodies(server, '/api/report/deleteTask')).toEqual([{ id: 't1' }]));
    },
    SLOW_MS,
  );

  it(
    'edits a task with its own values, keeping its time zone and id',
    async () => {
      const server = serve({
        '/api/report/pageTasks': () =>
          page([
            task({
              type: 'equipment',
              deviceIds: [],
              equipmentIds: ['e1'],
              recipientIds: ['u7'],
              emails: [],
            }),
          ]),
        '/api/equipment/pageEquipment': () => page([{ id: 'e1', serial: '300001', name: 'Cold room' }]),
      });
      renderApp(BACKUP);
      await userEvent.click(await screen.findByTestId('task-edit-t1'));
      expect(await screen.findByDisplayValue('Fridge history')).toBeInTheDocument();
      expect(
        await within(screen.getByTestId('task-equipment')).findByText('Cold room (300001)'),
      ).toBeInTheDocument();
      expect(within(screen.getByTestId('task-recipients')).getByText('Quality Manager')).toBeInTheDocument();
      await userEvent.click(screen.getByTestId('task-frequency-monthly'));
      await userEvent.click(screen.getByTestId('task-save'));
      await waitFor(() => expect(bodies(server, '/api/report/saveTask')).toHaveLength(1));
      expect(bodies(server, '/api/report/saveTask')[0]).toEqual({
        id: 't1',
        name: 'Fridge history',
        type: 'equipment',
        frequency: 'monthly',
        format: 'csv',
        deviceIds: [],
        equipmentIds: ['e1'],
        recipientIds: ['u7'],
        emails: [],
        timeZone: 'Asia/Shanghai',
      });
    },
    SLOW_MS,
  );

  it(
    'offers no run, edit or delete without backup:edit',
    async () => {
      serve({}, ['data:view']);
      renderApp(BACKUP);
      await screen.findByTestId('task-row-t1');
      expect(screen.getByTestId('task-runs-t1')).toBeInTheDocument();
      expect(screen.queryByTestId('task-run-t1')).toBeNull();
      expect(screen.queryByTestId('task-edit-t1')).toBeNull();
      expect(screen.queryByTestId('task-add-open')).toBeNull();
    },
    SLOW_MS,
  );
});

describe('data centre', () => {
  it(
    'lists generated files by kind, downloads a kept one and filters by kind',
    async () => {
      const server = serve();
      renderApp(FILES);
      const row = await screen.findByTestId('file-row-f1');
      expect(within(row).getByText('Data backup: History data')).toBeInTheDocument();
      expect(within(row).getByText('2.0 KB')).toBeInTheDocument();
      expect(within(screen.getByTestId('file-row-f2')).getByText('Not kept (export)')).toBeInTheDocument();
      await userEvent.click(within(row).getByTestId('file-download-f1'));
      await waitFor(() => expect(bodies(server, '/api/dataCenter/downloadFile')).toEqual([{ id: 'f1' }]));
      await pick('file-kind-filter', 'Sensor report');
      await waitFor(() =>
        expect(bodies(server, '/api/dataCenter/pageFiles').at(-1)).toEqual({
          pageNum: 1,
          pageSize: 20,
          kind: 'sensorReport',
        }),
      );
      await userEvent.type(screen.getByTestId('file-search'), 'history');
      await waitFor(() =>
        expect(bodies(server, '/api/dataCenter/pageFiles').at(-1)).toMatchObject({ keyword: 'history' }),
      );
    },
    SLOW_MS,
  );

  it(
    'verifies a printed SHA-256 and says so when it is unknown, in Chinese too',
    async () => {
      const server = serve();
      renderApp(FILES);
      const input = await screen.findByTestId('verify-sha256');
      await userEvent.type(input, 'xyz');
      await userEvent.click(screen.getByTestId('verify-submit'));
      expect(await screen.findByText('A SHA-256 is 64 characters 0-9 and a-f')).toBeInTheDocument();
      await userEvent.clear(input);
      // Pasted from a page in groups, in capitals: spaces go, case does not matter.
      await userEvent.type(input, `${'AB'.repeat(16)} ${'ab'.repeat(16)}`);
      await userEvent.click(screen.getByTestId('verify-submit'));
      const found = await screen.findByTestId('verify-found');
      expect(bodies(server, '/api/report/verifyReport')).toEqual([{ sha256: 'ab'.repeat(32) }]);
      expect(found).toHaveTextContent('This report was generated by the platform');
      expect(found).toHaveTextContent('history.csv');
      expect(found).toHaveTextContent('Quality Manager');

      await i18n.changeLanguage('zh-CN');
      await userEvent.clear(input);
      await userEvent.type(input, 'cd'.repeat(32));
      await userEvent.click(screen.getByTestId('verify-submit'));
      expect(await screen.findByTestId('verify-not-found')).toHaveTextContent('本企业没有此 SHA-256 的报告');
    },
    SLOW_MS,
  );
});

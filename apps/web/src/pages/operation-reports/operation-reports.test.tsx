import type { OperationFigures, OperationRunView, OperationTaskView } from '@coldchain/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const REPORTS = '/monitoring/operationReport';
const TASKS = '/monitoring/operationReport/taskManage';
/** The first visit compiles the lazy page, slow on a shared 2-core machine. */
const SLOW_MS = 40_000;
const FIRST = { timeout: 20_000 };
const T0 = Date.UTC(2026, 2, 10);

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function run(fields: Partial<OperationRunView> = {}): OperationRunView {
  return {
    id: 'r1',
    taskId: 't1',
    taskName: 'Daily summary',
    departmentId: null,
    departmentName: null,
    duration: 'day',
    status: 'done',
    startTime: T0,
    endTime: T0 + 86_400_000,
    timeZone: 'UTC',
    size: 40_000,
    durationMs: 800,
    error: null,
    fileName: 'operation-report-20260310-20260311.pdf',
    createTime: T0 + 86_400_000,
    ...fields,
  };
}

function task(fields: Partial<OperationTaskView> = {}): OperationTaskView {
  return {
    id: 't1',
    name: 'Daily summary',
    departmentId: null,
    departmentName: null,
    duration: 'day',
    startDate: '2026-03-01',
    startHour: 0,
    notifierIds: ['u1'],
    notifierNames: ['Demo Admin'],
    emails: ['qa@example.com'],
    timeZone: 'UTC',
    nextRunTime: T0 + 86_400_000,
    createTime: T0,
    ...fields,
  };
}

const figures: OperationFigures = {
  companyName: 'Demo Cold Chain',
  departmentName: null,
  startTime: T0,
  endTime: T0 + 86_400_000,
  timeZone: 'UTC',
  generatedAt: T0 + 86_400_000,
  devices: { total: 4, online: 2 },
  availability: {
    expectedHours: 84,
    coveredHours: 33,
    ratio: 33 / 84,
    lowest: [{ deviceId: 'd3', name: 'Fridge 3', serial: 'S3', ratio: 0 }],
  },
  alarms: {
    total: 7,
    byType: [
      { alarmType: 'offline', level1: 1, level2: 0, level3: 0, total: 1 },
      { alarmType: 'overLimit', level1: 3, level2: 1, level3: 0, total: 4 },
    ],
    byLevel: [
      { level: 1, count: 4 },
      { level: 2, count: 1 },
      { level: 3, count: 0 },
    ],
  },
  resolution: { resolved: 5, medianMs: 50 * 60_000, worstMs: 1000 * 60_000 },
  unresolved: {
    count: 1,
    list: [
      {
        alarmId: 'a1',
        deviceName: 'Fridge 1',
        serial: 'S1',
        alarmType: 'preAlarm',
        level: 1,
        alarmTime: T0 + 4 * 3_600_000,
      },
    ],
  },
  equipment: [
    {
      equipmentId: 'e1',
      name: 'Vaccine fridge',
      serial: '100001',
      budgetMinutes: 10,
      usedMinutes: 20,
      ratio: 2,
    },
  ],
  credits: { spent: 4, byChannel: [{ channel: 'sms', spent: 4 }] },
};

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}) {
  return stubServer({
    authTags: ['report:edit', 'data:view'],
    overrides: {
      '/api/operationReport/pageRuns': () =>
        page([
          run(),
          run({ id: 'r2', status: 'failed', error: 'The owner left', fileName: null, size: null }),
        ]),
      '/api/operationReport/runFigures': () => ({ taskName: 'Daily summary', figures }),
      '/api/operationReport/pageTasks': () => page([task()]),
      '/api/operationReport/saveTask': () => ({ id: 't9' }),
      '/api/operationReport/runTask': () => ({ runId: 'r9' }),
      '/api/operationReport/deleteTask': () => null,
      '/api/personnel/memberOptions': () => [
        { id: 'u1', name: 'Demo Admin' },
        { id: 'u2', name: 'Ward Nurse' },
      ],
      '/api/group/departmentGroups': () => [
        { id: 'd0', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
        { id: 'd1', pid: 'd0', name: 'Pharmacy', level: 2, groups: [] },
      ],
      ...overrides,
    },
  });
}

async function choose(testId: string, option: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const matches = await screen.findAllByTitle(option);
  await userEvent.click(matches.at(-1)!);
}

let clicks: string[] = [];
beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
  clicks = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('operation reports', () => {
  it(
    'lists the reports with scope, period and status, filters by status and opens one with its figures',
    async () => {
      const server = serve({
        '/api/operationReport/downloadRun': new Response('%PDF-1.7\n', {
          status: 200,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="operation-report-20260310-20260311.pdf"',
          },
        }),
      });
      renderApp(REPORTS);
      const row = await screen.findByTestId('run-row-r1', {}, FIRST);
      expect(row).toHaveTextContent('Whole company');
      expect(row).toHaveTextContent('Daily: 2026-03-10 00:00 – 2026-03-11 00:00');
      expect(within(row).getByTestId('run-status-done')).toHaveTextContent('Done');
      const failed = screen.getByTestId('run-row-r2');
      expect(failed).toHaveTextContent('The owner left');
      expect(within(failed).queryByTestId('run-view-r2')).toBeNull();

      await choose('run-status-filter', 'Failed');
      await waitFor(() =>
        expect(bodies(server, '/api/operationReport/pageRuns').at(-1)).toMatchObject({ status: 'failed' }),
      );

      await userEvent.click(screen.getByTestId('run-view-r1'));
      const view = await screen.findByTestId('report-view');
      expect(within(view).getByTestId('view-availability')).toHaveTextContent('39.3%');
      expect(view).toHaveTextContent('33 of 84 hours');
      expect(within(view).getByTestId('view-resolution')).toHaveTextContent('50 min');
      expect(within(view).getByTestId('view-resolution')).toHaveTextContent('16 h 40 min');
      expect(within(view).getByTestId('alarm-bars')).toHaveTextContent('Over-limit alarm');
      expect(within(view).getByTestId('view-unresolved')).toHaveTextContent('Fridge 1');
      expect(within(view).getByTestId('view-equipment')).toHaveTextContent('200.0%');
      expect(bodies(server, '/api/operationReport/runFigures')).toEqual([{ id: 'r1' }]);
      await userEvent.click(screen.getByTestId('report-view-download'));
      await waitFor(() => expect(clicks).toEqual(['operation-report-20260310-20260311.pdf']));
      expect(bodies(server, '/api/operationReport/downloadRun')).toEqual([{ id: 'r1' }]);
    },
    SLOW_MS,
  );

  it(
    'shows the empty list, and a failed load with a retry',
    async () => {
      serve({ '/api/operationReport/pageRuns': () => page([]) });
      const view = renderApp(REPORTS);
      expect(await screen.findByText('No reports yet', {}, FIRST)).toBeInTheDocument();
      view.unmount();
      vi.unstubAllGlobals();
      let calls = 0;
      serve({
        '/api/operationReport/pageRuns': () => {
          calls++;
          if (calls === 1) throw new Error('database down');
          return page([run()]);
        },
      });
      renderApp(REPORTS);
      const error = await screen.findByTestId('runs-error', {}, FIRST);
      await userEvent.click(within(error).getByRole('button'));
      expect(await screen.findByTestId('run-row-r1')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'manages tasks: lists them, creates one for a department, runs one now and deletes one',
    async () => {
      const server = serve();
      renderApp(TASKS);
      const row = await screen.findByTestId('task-row-t1', {}, FIRST);
      expect(row).toHaveTextContent('Whole company');
      expect(row).toHaveTextContent('2026-03-01 00:00');
      expect(row).toHaveTextContent('Demo Admin, qa@example.com');

      await userEvent.click(screen.getByTestId('task-add-open'));
      await userEvent.type(await screen.findByTestId('task-name'), 'Pharmacy weekly');
      await userEvent.click(screen.getByTestId('task-save'));
      expect(await screen.findByText('Add at least one notifier or e-mail address')).toBeInTheDocument();
      expect(bodies(server, '/api/operationReport/saveTask')).toHaveLength(0);
      await choose('task-scope', 'Pharmacy');
      await userEvent.click(screen.getByTestId('task-duration-week'));
      await choose('task-start-hour', '06:00');
      await choose('task-notifiers', 'Ward Nurse');
      await userEvent.click(screen.getByTestId('task-save'));
      await waitFor(() => expect(bodies(server, '/api/operationReport/saveTask')).toHaveLength(1));
      const today = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      expect(bodies(server, '/api/operationReport/saveTask')[0]).toEqual({
        name: 'Pharmacy weekly',
        departmentId: 'd1',
        duration: 'week',
        startDate: `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`,
        startHour: 6,
        notifierIds: ['u2'],
        emails: [],
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });

      await userEvent.click(screen.getByTestId('task-run-t1'));
      await waitFor(() => expect(bodies(server, '/api/operationReport/runTask')).toEqual([{ id: 't1' }]));
      await userEvent.click(screen.getByTestId('task-delete-t1'));
      await userEvent.click(await screen.findByTestId('task-delete-confirm'));
      await waitFor(() => expect(bodies(server, '/api/operationReport/deleteTask')).toEqual([{ id: 't1' }]));
    },
    SLOW_MS,
  );

  it(
    'starts a department member on their department, and shows a viewer no changing buttons',
    async () => {
      const server = serve({
        '/api/group/departmentGroups': () => [
          { id: 'd1', pid: 'd0', name: 'Pharmacy', level: 2, groups: [] },
        ],
      });
      const view = renderApp(TASKS);
      await screen.findByTestId('task-row-t1', {}, FIRST);
      await userEvent.click(screen.getByTestId('task-add-open'));
      await userEvent.type(await screen.findByTestId('task-name'), 'Pharmacy daily');
      await waitFor(() =>
        expect(within(screen.getByTestId('task-scope')).getByTitle('Pharmacy')).toBeInTheDocument(),
      );
      await choose('task-notifiers', 'Ward Nurse');
      await userEvent.click(screen.getByTestId('task-save'));
      await waitFor(() => expect(bodies(server, '/api/operationReport/saveTask')).toHaveLength(1));
      expect(bodies(server, '/api/operationReport/saveTask')[0]).toMatchObject({
        departmentId: 'd1',
        duration: 'day',
      });
      view.unmount();
      vi.unstubAllGlobals();
      stubServer({
        authTags: ['data:view'],
        overrides: { '/api/operationReport/pageTasks': () => page([task()]) },
      });
      renderApp(TASKS);
      await screen.findByTestId('task-row-t1', {}, FIRST);
      expect(screen.queryByTestId('task-add-open')).toBeNull();
      expect(screen.queryByTestId('task-run-t1')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'reads in Chinese on a 390 px phone',
    async () => {
      await i18n.changeLanguage('zh-CN');
      act(() => {
        window.innerWidth = 390;
        window.dispatchEvent(new Event('resize'));
      });
      try {
        serve();
        renderApp(TASKS);
        const row = await screen.findByTestId('task-row-t1', {}, FIRST);
        expect(row).toHaveTextContent('全企业');
        expect(row).toHaveTextContent('每天');
        expect(screen.getByTestId('task-run-t1')).toHaveTextContent('立即运行');
      } finally {
        act(() => {
          window.innerWidth = 1366;
          window.dispatchEvent(new Event('resize'));
        });
      }
    },
    SLOW_MS,
  );
});

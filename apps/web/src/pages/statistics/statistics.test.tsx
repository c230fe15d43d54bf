import type { Statistics } from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const PAGE = '/dataCenter/statistics';
const CALL = '/api/statistics/companyStatistics';
const EXPORT = '/api/statistics/exportStatistics';
const DAY = 86_400_000;

function statistics(overrides: Partial<Statistics> = {}): Statistics {
  const start = dayjs().startOf('day').subtract(6, 'day').valueOf();
  const buckets = Array.from({ length: 7 }, (_, i) => start + i * DAY);
  const zeros = () => buckets.map(() => 0);
  return {
    startTime: start,
    endTime: Date.now(),
    timeZone: 'UTC',
    bucket: 'day',
    buckets,
    departments: [
      { id: '1', name: 'Demo Cold Chain', parentId: null, level: 1 },
      { id: '2', name: 'Pharmacy', parentId: '1', level: 2 },
      { id: '3', name: 'Lab', parentId: '1', level: 2 },
    ],
    alarms: {
      total: 5,
      byType: [
        { key: 'overLimit', counts: [0, 1, 1, 0, 0, 0, 0] },
        { key: 'offline', counts: [0, 1, 0, 0, 0, 0, 2] },
      ],
      byLevel: [
        { key: 1, counts: [0, 1, 1, 0, 0, 0, 0] },
        { key: 2, counts: [0, 1, 0, 0, 0, 0, 2] },
        { key: 3, counts: zeros() },
      ],
      byDepartment: [
        { key: '2', counts: [0, 2, 1, 0, 0, 0, 0] },
        { key: '3', counts: [0, 0, 0, 0, 0, 0, 2] },
      ],
    },
    resolveTime: {
      overall: {
        departmentId: null,
        resolved: 4,
        open: 1,
        medianMinutes: 25,
        p90Minutes: 44,
        worstMinutes: 50,
      },
      rows: [
        { departmentId: '2', resolved: 3, open: 1, medianMinutes: 30, p90Minutes: 46, worstMinutes: 50 },
        { departmentId: '3', resolved: 1, open: 0, medianMinutes: 20, p90Minutes: 20, worstMinutes: 20 },
      ],
    },
    availability: {
      overall: { departmentId: null, devices: 2, expectedHours: 336, coveredHours: 252, ratio: 0.75 },
      rows: [
        { departmentId: '3', devices: 1, expectedHours: 168, coveredHours: 84, ratio: 0.5 },
        { departmentId: '2', devices: 1, expectedHours: 168, coveredHours: 168, ratio: 1 },
      ],
      worst: [
        {
          deviceId: '11',
          serial: 'CC1001',
          name: 'Lab freezer',
          departmentId: '3',
          devices: 1,
          expectedHours: 168,
          coveredHours: 84,
          ratio: 0.5,
        },
        {
          deviceId: '12',
          serial: 'CC1002',
          name: 'Pharmacy fridge',
          departmentId: '2',
          devices: 1,
          expectedHours: 168,
          coveredHours: 160,
          ratio: 0.95,
        },
      ],
    },
    notifications: {
      total: 6,
      rows: [
        { channel: 'email', counts: { delivered: 2, sent: 0, failed: 0, notSent: 0, pending: 0 } },
        { channel: 'sms', counts: { delivered: 0, sent: 1, failed: 1, notSent: 0, pending: 0 } },
        { channel: 'call', counts: { delivered: 0, sent: 0, failed: 0, notSent: 1, pending: 0 } },
        { channel: 'wechat', counts: { delivered: 0, sent: 0, failed: 0, notSent: 0, pending: 1 } },
        { channel: 'whatsapp', counts: { delivered: 0, sent: 0, failed: 0, notSent: 0, pending: 0 } },
      ],
    },
    credits: { total: 3, byChannel: [{ key: 'sms', counts: [0, 2, 0, 0, 0, 1, 0] }] },
    ...overrides,
  };
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

const xlsxFile = () =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
    status: 200,
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': 'attachment; filename="statistics-resolveTime-20260301-20260307.xlsx"',
    },
  });

let downloads: string[] = [];
beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
  downloads = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('statistics page', () => {
  it('draws every chart of the last 7 days from one call, in the browser’s time zone', async () => {
    const server = stubServer({ overrides: { [CALL]: () => statistics() } });
    renderApp(PAGE);
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Statistics');
    for (const chart of ['alarmsByType', 'resolveTime', 'availability', 'notifications', 'credits']) {
      expect(await screen.findByTestId(`statistics-${chart}-canvas`)).toBeInTheDocument();
    }
    expect(screen.getByRole('img', { name: '5 alarms in the period' })).toBeInTheDocument();
    expect(screen.getByTestId('statistics-resolve-summary')).toHaveTextContent(
      'Resolved by a person: 4 · median 25 min · 90% within 44 min · longest 50 min · still open: 1',
    );
    expect(screen.getByTestId('statistics-availability-summary')).toHaveTextContent(
      '2 devices had readings in 75% of the hours they were expected',
    );
    const worst = within(screen.getByTestId('statistics-worst-devices'));
    expect(worst.getByText('Lab freezer')).toBeInTheDocument();
    expect(worst.getAllByText('50%').length).toBeGreaterThan(0);
    expect(screen.getByTestId('statistics-bucket')).toHaveTextContent('Counted per day');
    const [body] = bodies(server, CALL);
    expect(body).toEqual({
      startTime: dayjs().startOf('day').subtract(6, 'day').valueOf(),
      endTime: expect.any(Number),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(bodies(server, CALL)).toHaveLength(1);
  });

  it('asks again for last month and for a department of the caller', async () => {
    const server = stubServer({ overrides: { [CALL]: () => statistics() } });
    renderApp(PAGE);
    await screen.findByTestId('statistics-alarmsByType-canvas');
    await userEvent.click(within(screen.getByTestId('statistics-preset')).getByText('Last month'));
    await waitFor(() => expect(bodies(server, CALL)).toHaveLength(2));
    const month = dayjs().startOf('month');
    expect(bodies(server, CALL)[1]).toMatchObject({
      startTime: month.subtract(1, 'month').valueOf(),
      endTime: month.valueOf(),
    });
    fireEvent.mouseDown(within(screen.getByTestId('statistics-department')).getByRole('combobox'));
    await userEvent.click((await screen.findAllByTitle('Pharmacy')).at(-1)!);
    await waitFor(() => expect(bodies(server, CALL).at(-1)).toMatchObject({ departmentId: '2' }));
  });

  it('takes a custom range of whole days, and refuses one longer than 366 days', async () => {
    const server = stubServer({ overrides: { [CALL]: () => statistics() } });
    renderApp(PAGE);
    await screen.findByTestId('statistics-alarmsByType-canvas');
    await userEvent.click(within(screen.getByTestId('statistics-preset')).getByText('Custom'));
    const typeRange = async (from: string, to: string) => {
      const [start, end] = [...document.querySelectorAll<HTMLInputElement>('.ant-picker-range input')] as [
        HTMLInputElement,
        HTMLInputElement,
      ];
      await userEvent.click(start);
      fireEvent.change(start, { target: { value: from } });
      fireEvent.keyDown(start, { key: 'Enter' });
      fireEvent.change(end, { target: { value: to } });
      fireEvent.keyDown(end, { key: 'Enter' });
    };
    await typeRange('2025-01-01', '2026-02-01');
    expect(await screen.findByText('Statistics may cover at most 366 days')).toBeInTheDocument();
    expect(bodies(server, CALL)).toHaveLength(1);
    await typeRange('2026-01-01', '2026-01-31');
    await waitFor(() => expect(bodies(server, CALL)).toHaveLength(2));
    expect(bodies(server, CALL)[1]).toMatchObject({
      startTime: dayjs('2026-01-01').valueOf(),
      endTime: dayjs('2026-02-01').valueOf(),
    });
  });

  it('groups the alarm chart by level or department, and exports that grouping', async () => {
    const server = stubServer({ overrides: { [CALL]: () => statistics(), [EXPORT]: xlsxFile() } });
    renderApp(PAGE);
    await screen.findByTestId('statistics-alarmsByType-canvas');
    await userEvent.click(within(screen.getByTestId('statistics-alarm-grouping')).getByText('By department'));
    expect(await screen.findByTestId('statistics-alarmsByDepartment-canvas')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('statistics-alarmsByDepartment-xlsx'));
    await waitFor(() => expect(bodies(server, EXPORT)).toHaveLength(1));
    expect(bodies(server, EXPORT)[0]).toMatchObject({ chart: 'alarmsByDepartment', format: 'xlsx' });
    await waitFor(() => expect(downloads).toEqual(['statistics-resolveTime-20260301-20260307.xlsx']));
  });

  it('asks for the signature password before an export while audit signature is on', async () => {
    const server = stubServer({
      user: { signCheck: true },
      overrides: { [CALL]: () => statistics(), [EXPORT]: xlsxFile() },
    });
    renderApp(PAGE);
    await screen.findByTestId('statistics-resolveTime-canvas');
    await userEvent.click(screen.getByTestId('statistics-resolveTime-xlsx'));
    await userEvent.type(await screen.findByTestId('statistics-export-sign-password'), 'Sign1234');
    await userEvent.click(screen.getByTestId('statistics-export-submit'));
    await waitFor(() => expect(bodies(server, EXPORT)).toHaveLength(1));
    expect(bodies(server, EXPORT)[0]).toMatchObject({ chart: 'resolveTime', signPassword: 'Sign1234' });
  });

  it('shows empty charts, sections without the right, and hides the export without the export flag', async () => {
    const empty = statistics();
    stubServer({
      user: { exportExcel: false },
      overrides: {
        [CALL]: () => ({
          ...empty,
          alarms: { total: 0, byType: [], byLevel: [], byDepartment: [] },
          resolveTime: { overall: { ...empty.resolveTime!.overall, resolved: 0, open: 0 }, rows: [] },
          notifications: { total: 0, rows: empty.notifications!.rows },
          availability: null,
          credits: null,
        }),
      },
    });
    renderApp(PAGE);
    expect(await screen.findAllByText('Nothing in this period')).toHaveLength(3);
    expect(screen.getByText('Needs the right to view devices.')).toBeInTheDocument();
    expect(screen.getByText('Needs the right to view expenses.')).toBeInTheDocument();
    expect(screen.queryByTestId('statistics-notifications-xlsx')).toBeNull();
    expect(screen.getByTestId('statistics-notifications-png')).toBeDisabled();
  });

  it('says when the statistics could not be loaded, and tries again', async () => {
    let fail = true;
    const server = stubServer({
      overrides: { [CALL]: () => (fail ? undefined : statistics()) },
    });
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) === CALL && fail) return envelope(null, 500, 'Database unavailable');
      return answer(input, init);
    });
    renderApp(PAGE);
    expect(await screen.findAllByText('The statistics could not be loaded.')).toHaveLength(5);
    fail = false;
    await userEvent.click(screen.getAllByRole('button', { name: 'Try again' })[0]!);
    expect(await screen.findByTestId('statistics-credits-canvas')).toBeInTheDocument();
  });

  it('speaks Chinese, says long resolve times in days and hours, and lists no device that missed nothing', async () => {
    await i18n.changeLanguage('zh-CN');
    const base = statistics();
    stubServer({
      overrides: {
        [CALL]: () => ({
          ...base,
          bucket: 'hour',
          resolveTime: {
            overall: {
              ...base.resolveTime!.overall,
              medianMinutes: 185,
              p90Minutes: 1500,
              worstMinutes: 1780.4,
            },
            rows: base.resolveTime!.rows,
          },
          availability: { ...base.availability!, worst: [] },
        }),
      },
    });
    renderApp(PAGE);
    expect(await screen.findByTestId('page-title')).toHaveTextContent('统计分析');
    expect(await screen.findByText('报警趋势')).toBeInTheDocument();
    expect(screen.getByText('最近 7 天')).toBeInTheDocument();
    expect(await screen.findByTestId('statistics-bucket')).toHaveTextContent('按小时统计');
    expect(screen.getByTestId('statistics-availability-summary')).toHaveTextContent(
      '2 台设备在应在线的小时中有 75% 存有数据',
    );
    expect(screen.getByTestId('statistics-resolve-summary')).toHaveTextContent(
      '人工处理：4 条 · 中位数 3 小时 5 分钟 · 90% 在 1 天 1 小时 内 · 最长 1 天 5 小时 · 未处理：1 条',
    );
    expect(screen.queryByTestId('statistics-worst-devices')).toBeNull();
  });
});

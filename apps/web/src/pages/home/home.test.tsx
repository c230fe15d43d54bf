import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { calledPaths, demoPowers, envelope, sentBody, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';

const COUNTS = { '1': 7, '2': 2, '3': 1, '4': 3, '5': 4, '6': 5 };

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('home device overview', () => {
  it('shows the count of every state, and each links to the list filtered by it', async () => {
    stubServer({
      overrides: {
        '/api/device/countGroupByState': () => COUNTS,
        '/api/device/pageDevices': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
      },
    });
    renderApp('/home');
    const labels = ['Normal', 'Alarm', 'Abnormal', 'Offline', 'Maintenance', 'Disposed'];
    for (const [i, label] of labels.entries()) {
      const link = await screen.findByTestId(`home-devices-state-${i + 1}`);
      expect(link).toHaveTextContent(`${label}${COUNTS[String(i + 1) as keyof typeof COUNTS]}`);
    }
    expect(screen.getByTestId('home-devices-all')).toHaveTextContent('22 in total');
    expect(screen.getByText('Welcome, Demo Admin')).toBeInTheDocument();
    expect(screen.queryByText(/^Device, alarm/)).toBeNull();

    await userEvent.click(screen.getByTestId('home-devices-state-4'));
    await waitFor(() => expect(currentLocation.path).toBe('/deviceManagement/monitoringDevice?state=4'));
    expect(await screen.findByTestId('state-tab-4')).toBeInTheDocument();
  });

  it('is left out for a member without device:view, who is not sent to a call it may not make', async () => {
    const server = stubServer();
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/index/getUserPowers') return answer(input, init);
      return envelope({ ...demoPowers(), authTags: ['home:view'] });
    });
    renderApp('/home');
    expect(await screen.findByText('Welcome, Demo Admin')).toBeInTheDocument();
    // Let the powers arrive and settle, so the absence below is the decision and not a race.
    await waitFor(() => expect(calledPaths(server)).toContain('/api/index/getUserPowers'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('home-devices')).toBeNull();
    expect(calledPaths(server)).not.toContain('/api/device/countGroupByState');
  });
});

const DATA_INFO = {
  companyId: 'c1',
  companyName: 'Demo Cold Chain',
  departmentCount: 4,
  memberCount: 12,
  deviceCount: 22,
  deviceStates: COUNTS,
  alarmsToday: 3,
  pendingAlarms: 5,
};
const CHART = {
  days: [
    { date: '2026-11-15', alarms: 2, resolved: 1 },
    { date: '2026-11-16', alarms: 0, resolved: 0 },
    { date: '2026-11-17', alarms: 4, resolved: 4 },
    { date: '2026-11-18', alarms: 1, resolved: 0 },
    { date: '2026-11-19', alarms: 0, resolved: 1 },
    { date: '2026-11-20', alarms: 3, resolved: 2 },
    { date: '2026-11-21', alarms: 2, resolved: 0 },
  ],
};

describe('home company card and alarm chart', () => {
  it('shows the company figures and draws alarms per day over 7 days', async () => {
    const server = stubServer({
      overrides: {
        '/api/userOrganize/companyDataInfo': () => DATA_INFO,
        '/api/userOrganize/indexChartForStatistics': () => CHART,
        '/api/device/countGroupByState': () => COUNTS,
      },
    });
    renderApp('/home');
    const card = await screen.findByTestId('home-company-card');
    await waitFor(() =>
      expect(within(card).getByTestId('home-company-memberCount')).toHaveTextContent('Members12'),
    );
    expect(card).toHaveTextContent('Demo Cold Chain');
    expect(within(card).getByTestId('home-company-departmentCount')).toHaveTextContent('Departments4');
    expect(within(card).getByTestId('home-company-deviceCount')).toHaveTextContent('Monitors22');
    expect(within(card).getByTestId('home-company-alarmsToday')).toHaveTextContent('Alarms today3');
    expect(within(card).getByTestId('home-company-pendingAlarms')).toHaveTextContent('Pending alarms5');

    const chart = await screen.findByRole(
      'img',
      { name: '12 alarms in the last 7 days' },
      { timeout: 20_000 },
    );
    // ECharts drew the days on the axis (SVG text).
    await waitFor(() => expect(chart).toHaveTextContent('11-15'));
    expect(chart).toHaveTextContent('11-21');
    expect(screen.getByTestId('home-alarm-chart')).toHaveTextContent('Alarms in the last 7 days');
    expect(sentBody(server, '/api/userOrganize/indexChartForStatistics')).toEqual({ days: 7 });
    // The device-state overview stays.
    expect(await screen.findByTestId('home-devices-state-1')).toHaveTextContent('Normal7');
    // No equipment figures without equipment:view (the server answers null).
    expect(screen.queryByTestId('home-equipment')).toBeNull();
  });

  it('counts equipment per use state, each opening the list filtered by it', async () => {
    stubServer({
      overrides: {
        '/api/userOrganize/companyDataInfo': () => ({
          ...DATA_INFO,
          equipmentStates: { total: 7, inUse: 4, underService: 1, disposed: 2, standby: 0 },
        }),
        '/api/userOrganize/indexChartForStatistics': () => CHART,
        '/api/device/countGroupByState': () => COUNTS,
      },
    });
    renderApp('/home');
    const card = await screen.findByTestId('home-equipment');
    expect(card).toHaveTextContent('7 in total');
    expect(within(card).getByTestId('home-equipment-state-1')).toHaveTextContent('In use4');
    expect(within(card).getByTestId('home-equipment-state-2')).toHaveTextContent('Under service1');
    expect(within(card).getByTestId('home-equipment-state-3')).toHaveTextContent('Disposed2');
    await userEvent.click(within(card).getByTestId('home-equipment-state-2'));
    await waitFor(() => expect(currentLocation.path).toBe('/deviceManagement/equipment?useState=2'));
  });

  it('is in Chinese when the console is', async () => {
    await i18n.changeLanguage('zh-CN');
    stubServer({
      overrides: {
        '/api/userOrganize/companyDataInfo': () => DATA_INFO,
        '/api/userOrganize/indexChartForStatistics': () => CHART,
      },
    });
    renderApp('/home');
    const card = await screen.findByTestId('home-company-card');
    await waitFor(() =>
      expect(within(card).getByTestId('home-company-pendingAlarms')).toHaveTextContent('待处理报警5'),
    );
    expect(await screen.findByRole('img', { name: '近 7 天共 12 次报警' })).toBeInTheDocument();
  });

  it('leaves out alarm figures and the chart without alarm:view, and device figures without device:view', async () => {
    const server = stubServer({ overrides: { '/api/userOrganize/companyDataInfo': () => DATA_INFO } });
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/index/getUserPowers') return answer(input, init);
      return envelope({ ...demoPowers(), authTags: ['home:view'] });
    });
    renderApp('/home');
    const card = await screen.findByTestId('home-company-card');
    await waitFor(() =>
      expect(within(card).getByTestId('home-company-memberCount')).toHaveTextContent('Members12'),
    );
    await waitFor(() => expect(calledPaths(server)).toContain('/api/index/getUserPowers'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(within(card).queryByTestId('home-company-alarmsToday')).toBeNull();
    expect(within(card).queryByTestId('home-company-deviceCount')).toBeNull();
    expect(screen.queryByTestId('home-alarm-chart')).toBeNull();
    expect(calledPaths(server)).not.toContain('/api/userOrganize/indexChartForStatistics');
  });
});

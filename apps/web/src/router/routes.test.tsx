import { MENU_TREE, type MenuDefinition, MenuType, OPERATOR_MENU_TREE } from '@coldchain/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { alarmRecord } from '../pages/alarms/test-fixtures';
import { calledPaths, envelope, stubServer } from '../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../test/render-app';
import { hasScreen } from './page-registry';

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes (spec sections 2 and 8)', () => {
  it('/ redirects to /home inside the layout', async () => {
    localStorage.setItem('accessToken', 't');
    stubServer();
    renderApp('/');
    // The first screen a file draws pays for antd's styles being generated: slow on a busy host.
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Home');
    expect(currentLocation.path).toBe('/home');
    expect(screen.getByTestId('breadcrumb')).toHaveTextContent('Home');
    expect(await screen.findByText('Welcome, Demo Admin')).toBeInTheDocument();
    expect(await screen.findByText('Current company: Demo Cold Chain')).toBeInTheDocument();
  });

  it('/home asks the server for the powers and the user once, however many parts of the screen read them', async () => {
    localStorage.setItem('accessToken', 't');
    const server = stubServer();
    renderApp('/home');
    expect(await screen.findByText('Welcome, Demo Admin')).toBeInTheDocument();
    await screen.findByText('Current company: Demo Cold Chain');
    // Late readers (the chart card, the sidebar's badges) mount after the first answers came back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const calls = calledPaths(server);
    expect(calls.filter((path) => path === '/api/index/getUserPowers')).toHaveLength(1);
    expect(calls.filter((path) => path === '/api/user/userInfo')).toHaveLength(1);
  });

  it('logging in through the form reaches /home with one call for the powers', async () => {
    const server = stubServer();
    renderApp('/login');
    await userEvent.type(await screen.findByTestId('login-account'), 'demo@example.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Demo1234');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Welcome, Demo Admin')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const calls = calledPaths(server);
    expect(calls.filter((path) => path === '/api/index/getUserPowers')).toHaveLength(1);
    // The login itself loaded the user; the screens reuse that answer.
    expect(calls.filter((path) => path === '/api/user/userInfo')).toHaveLength(1);
  });

  it('an unknown path goes to /404, whose button leads home', async () => {
    localStorage.setItem('accessToken', 't');
    stubServer();
    renderApp('/this/does/not/exist');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(currentLocation.path).toBe('/404');
    await userEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    await waitFor(() => expect(currentLocation.path).toBe('/home'));
  });

  it('every page of the company and operator menus has its own screen', () => {
    const pages = (tree: MenuDefinition[]): string[] =>
      tree.flatMap((d) => [...(d.type !== MenuType.Directory ? [d.name] : []), ...pages(d.children ?? [])]);
    // /home has a route of its own (AppRoutes.tsx), loaded beside the layout.
    const routed = pages([...MENU_TREE, ...OPERATOR_MENU_TREE]).filter((name) => name !== 'home');
    expect(routed.filter((name) => !hasScreen(name))).toEqual([]);
  });

  it('a permission route renders its own page under its translated title', async () => {
    localStorage.setItem('accessToken', 't');
    stubServer();
    renderApp('/deviceManagement/camera');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Cameras');
  });

  it("a monitor's alarm detail opens the alarm record", async () => {
    localStorage.setItem('accessToken', 't');
    const server = stubServer({
      overrides: {
        '/api/alarm/alarmDetail': () => alarmRecord(),
        '/api/alarm/alarmNotifications': () => [],
      },
    });
    renderApp('/deviceManagement/monitoringDevice/deviceAlarmDetail?id=101');
    expect(await screen.findByTestId('alarm-detail-device')).toHaveTextContent('Vaccine fridge 1 (DEMO0001)');
    expect(screen.queryByTestId('not-found')).toBeNull();
    expect(calledPaths(server)).toContain('/api/alarm/alarmDetail');
    // Back leads to the monitor it was opened from, not to the alarm list.
    expect(screen.getByTestId('alarm-detail-back')).toHaveAttribute(
      'href',
      `/deviceManagement/monitoringDevice/monitoringDeviceDetail?id=${alarmRecord().deviceId}`,
    );
  });

  it('without a token the guard sends the user to /login with a redirect', async () => {
    const fetchMock = stubServer();
    renderApp('/alarm/alarmInfo?page=2');
    await screen.findByTestId('login-submit');
    expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/alarm/alarmInfo?page=2')}`);
    expect(calledPaths(fetchMock)).not.toContain('/api/index/getUserPowers');
  });

  it('when the powers cannot be loaded, the token is reset, the error shown and the user sent to login', async () => {
    localStorage.setItem('accessToken', 't');
    localStorage.setItem('signPasswordSet', '1');
    stubServer({ overrides: { '/api/index/getUserPowers': envelope(null, 500, 'Powers failed') } });
    renderApp('/home');
    await screen.findByTestId('login-submit');
    expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/home')}`);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('signPasswordSet')).toBe('1');
    expect(await screen.findAllByText('Powers failed')).toHaveLength(1);
  });

  it("shows 'Has Error' when the failure carries no message", async () => {
    localStorage.setItem('accessToken', 't');
    const server = stubServer();
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/user/userInfo') return answer(input, init);
      const broken = new Response('{}', { headers: { 'Content-Type': 'application/json' } });
      broken.json = () => Promise.reject(new Error(''));
      return broken;
    });
    renderApp('/home');
    expect(await screen.findByText('Has Error')).toBeInTheDocument();
    await waitFor(() => expect(currentLocation.path).toMatch(/^\/login\?redirect=/));
  });

  it('a 311 answer while browsing logs out and returns to login with the path', async () => {
    localStorage.setItem('accessToken', 't');
    stubServer({
      overrides: { '/api/user/userInfo': envelope(null, 311, 'Login expired, please log in again') },
    });
    renderApp('/alarm/alarmInfo');
    await screen.findByTestId('login-submit');
    expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/alarm/alarmInfo')}`);
    expect(await screen.findAllByText('Login expired, please log in again')).toHaveLength(1);
  });

  it('the data screens are outside the layout and ask for a login first (pages/screen)', async () => {
    stubServer();
    renderApp('/screen2');
    await screen.findByTestId('login-submit');
    expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/screen2')}`);
    expect(screen.queryByTestId('sidebar')).toBeNull();
  });

  it('the route table is emptied on logout', async () => {
    localStorage.setItem('accessToken', 't');
    stubServer();
    const { queryClient } = renderApp('/alarm/alarmInfo');
    await screen.findByTestId('page-title');
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-logout'));
    await screen.findByTestId('login-submit');
    expect(queryClient.getQueryData(['session', 'powers'])).toBeUndefined();
  });
});

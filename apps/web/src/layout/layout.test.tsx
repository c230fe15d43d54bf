import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { calledPaths, demoPowers, sentBody, stubServer } from '../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../test/render-app';

function logIn() {
  localStorage.setItem('accessToken', 'token-1');
  localStorage.setItem('companyId', 'c1');
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

async function openApp(path = '/home') {
  const view = renderApp(path);
  await screen.findByTestId('page-title');
  return view;
}

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
  setWidth(1366);
  logIn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('top bar', () => {
  it('cuts a long user name to 10 characters plus an ellipsis', async () => {
    stubServer({ user: { relName: 'Alexandria Ocasio' } });
    await openApp();
    await waitFor(() => expect(screen.getByTestId('user-menu')).toHaveTextContent('Alexandria...'));
    expect(screen.getByTestId('user-menu')).not.toHaveTextContent('Alexandria Ocasio');
  });

  it('keeps a name of 11 characters whole', async () => {
    stubServer({ user: { relName: 'Elevenchars' } });
    await openApp();
    await waitFor(() => expect(screen.getByTestId('user-menu')).toHaveTextContent('Elevenchars'));
  });

  it("shows '99+' on the bell when more than 99 notices are unread", async () => {
    stubServer({ notices: 120 });
    await openApp();
    await waitFor(() => expect(screen.getByTestId('notice-bell')).toHaveTextContent('99+'));
  });

  it('warns when the browser has no full-screen support', async () => {
    stubServer();
    await openApp();
    await userEvent.click(screen.getByTestId('fullscreen-toggle'));
    expect(await screen.findByText('your browser does not support this feature')).toBeInTheDocument();
  });

  it('shows the data-screen shortcut only with data:view, and it opens /screen with a ticket', async () => {
    const fetchMock = stubServer({ authTags: ['data:view'] });
    await openApp();
    await userEvent.click(await screen.findByTestId('data-screen'));
    await waitFor(() => expect(currentLocation.path).toBe('/screen?ticket=tkt'));
    expect(calledPaths(fetchMock)).toContain('/api/datav/getEncryptionUser');
  });

  it('hides the data-screen shortcut without data:view', async () => {
    stubServer({ authTags: [] });
    await openApp();
    await screen.findByTestId('notice-bell');
    expect(screen.queryByTestId('data-screen')).toBeNull();
  });

  it('hides the data-screen shortcut while the data screen service is off', async () => {
    stubServer({
      overrides: {
        '/api/index/getUserPowers': () => ({ ...demoPowers(), serviceAuthTags: ['service:logistics'] }),
      },
    });
    await openApp();
    await screen.findByTestId('notice-bell');
    expect(screen.queryByTestId('data-screen')).toBeNull();
  });

  it('shows the company in the selector and switches company through the server', async () => {
    const fetchMock = stubServer();
    await openApp();
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    fireEvent.mouseDown(within(screen.getByTestId('company-select')).getByRole('combobox'));
    await userEvent.click(await screen.findByText('Second Company'));
    await waitFor(() => expect(localStorage.getItem('companyId')).toBe('c2'));
    expect(sentBody(fetchMock, '/api/index/switchUserCompany')).toEqual({ id: 'c2' });
  });

  it('logs out through the server and goes to /login with the current path', async () => {
    const fetchMock = stubServer();
    await openApp('/alarm/alarmInfo');
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-logout'));
    await waitFor(() =>
      expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/alarm/alarmInfo')}`),
    );
    expect(calledPaths(fetchMock)).toContain('/api/logout');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('change password opens the personal centre with the password panel', async () => {
    stubServer();
    await openApp();
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-password'));
    await waitFor(() => expect(currentLocation.path).toBe('/user/personalCenter?panel=password'));
  });

  it('the help icon opens the help site in a new tab', async () => {
    stubServer();
    await openApp();
    await waitFor(() =>
      expect(screen.getByTestId('help-link')).toHaveAttribute('href', 'https://help.example.com'),
    );
    expect(screen.getByTestId('help-link')).toHaveAttribute('target', '_blank');
  });

  it('sends feedback with content and the default category 7', async () => {
    const fetchMock = stubServer();
    await openApp();
    await userEvent.click(screen.getByTestId('feedback-open'));
    await userEvent.type(await screen.findByTestId('feedback-content'), 'The chart is slow');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Thank you, your feedback was sent')).toBeInTheDocument();
    expect(sentBody(fetchMock, '/api/user/addFeedback')).toEqual({
      content: 'The chart is slow',
      category: 7,
      imgUrl: '',
      source: 1,
    });
  });
});

describe('sidebar', () => {
  it('is 240 px wide and remembers open/closed in sidebarStatus', async () => {
    stubServer();
    const view = await openApp();
    expect(screen.getByTestId('sidebar').style.width).toBe('240px');
    await userEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(localStorage.getItem('sidebarStatus')).toBe('0');
    expect(screen.getByTestId('sidebar').style.width).not.toBe('240px');
    view.unmount();

    // A reload keeps it closed, and opening it again stores '1'.
    await openApp();
    expect(screen.getByTestId('sidebar').style.width).not.toBe('240px');
    await userEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(localStorage.getItem('sidebarStatus')).toBe('1');
    expect(screen.getByTestId('sidebar').style.width).toBe('240px');
  });

  it('stays in view at full window height with its own scroll while a long page scrolls', async () => {
    stubServer();
    await openApp();
    const { style } = screen.getByTestId('sidebar');
    expect(style.position).toBe('sticky');
    expect(style.insetBlockStart).toBe('0px');
    expect(style.height).toBe('100vh');
    expect(style.overflow).toBe('auto');
  });

  it('shows pages and directories (types 1 and 4) but not hidden pages (type 2)', async () => {
    stubServer();
    await openApp();
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByText('Home')).toBeInTheDocument();
    await userEvent.click(within(sidebar).getByText('Device management'));
    expect(await within(sidebar).findByText('Monitors')).toBeInTheDocument();
    expect(within(sidebar).queryByText('Monitor detail')).toBeNull();
  });

  it('a hidden detail page highlights its activeMenu parent and gets a breadcrumb', async () => {
    stubServer();
    await openApp('/deviceManagement/monitoringDevice/monitoringDeviceDetail');
    // The detail page is loaded on first visit (page-registry), so its title comes a little later.
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Monitor detail');
    const selected = screen.getByTestId('sidebar').querySelector('.ant-menu-item-selected');
    expect(selected).toHaveTextContent('Monitors');
    expect(screen.getByTestId('breadcrumb')).toHaveTextContent('Device management');
    expect(screen.getByTestId('breadcrumb')).toHaveTextContent('Monitors');
  });

  it('navigates from the menu and a directory route goes to its first page', async () => {
    stubServer();
    await openApp('/alarm');
    await waitFor(() => expect(currentLocation.path).toBe('/alarm/alarmInfo'));
    await userEvent.click(within(screen.getByTestId('sidebar')).getByText('Alarm settings'));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Alarm settings'));
    expect(currentLocation.path).toBe('/alarm/alarmSetting');
  });
});

describe('mobile below 992 px', () => {
  it('is closed by default, opens as an overlay and closes on a route change', async () => {
    setWidth(800);
    stubServer();
    await openApp();
    expect(screen.queryByTestId('sidebar')).toBeNull();
    await userEvent.click(screen.getByTestId('sidebar-toggle'));
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar.style.width).toBe('240px');
    expect(screen.getByTestId('sidebar-mask')).toBeInTheDocument();
    await userEvent.click(within(sidebar).getByText('Alarm management'));
    await userEvent.click(await within(sidebar).findByText('Alarm records'));
    await waitFor(() => expect(currentLocation.path).toBe('/alarm/alarmInfo'));
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(screen.queryByTestId('sidebar-mask')).toBeNull();
  });

  it('closes on a click outside (the mask) and does not touch the desktop preference', async () => {
    stubServer();
    await openApp();
    act(() => setWidth(800));
    expect(screen.queryByTestId('sidebar')).toBeNull();
    await userEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('sidebar-mask'));
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(localStorage.getItem('sidebarStatus')).toBeNull();
  });
});

describe('language', () => {
  it('switching to Chinese stores the cookie and local storage and flips antd texts', async () => {
    stubServer();
    await openApp();
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-language-zh'));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('首页'));
    expect(localStorage.getItem('language')).toBe('zh-CN');
    expect(document.cookie).toContain('language=zh-CN');
    expect(within(screen.getByTestId('sidebar')).getByText('设备管理')).toBeInTheDocument();

    // antd's own texts follow: the feedback dialog's close button label comes from its locale.
    await userEvent.click(screen.getByTestId('feedback-open'));
    expect(await screen.findByRole('button', { name: '关闭' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '关闭' }));

    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-language-en'));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Home'));
    expect(localStorage.getItem('language')).toBe('en');
    expect(document.cookie).toContain('language=en');
    await userEvent.click(screen.getByTestId('feedback-open'));
    expect(await screen.findByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});

import type { NoticeView, PersonalInfo } from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { browser } from './WeChatPanel';

const PAGE = '/user/personalCenter';

const baseInfo: PersonalInfo = {
  id: 'u1',
  account: 'demo@example.com',
  name: 'Demo Admin',
  gender: 0,
  phone: '',
  email: 'demo@example.com',
  altPhone: '',
  headImg: '',
  pcAlarmVoice: false,
  signPasswordSet: false,
  wechatBound: false,
  wechatFollowed: false,
  company: 'Demo Cold Chain',
  department: 'Head office',
  role: 'Administrator',
};

function notice(id: string, state: number): NoticeView {
  return {
    id,
    kind: 'reminder',
    title: `Notice ${id}`,
    content: `Body ${id}`,
    state,
    createTime: Date.UTC(2025, 0, 2, 3, 4, 5),
  };
}

type Server = ReturnType<typeof stubServer>;

function bodies(server: Server, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) =>
      init?.body instanceof FormData
        ? Object.fromEntries(init.body.entries())
        : JSON.parse(String(init?.body)),
    );
}

function serve(info: Partial<PersonalInfo> = {}, overrides: Parameters<typeof stubServer>[0] = {}) {
  const notices = [notice('1', 1), notice('2', 3)];
  let unread = 1;
  return stubServer({
    ...overrides,
    overrides: {
      '/api/user/personalInfo': () => ({ ...baseInfo, ...info }),
      '/api/user/updateUserInfo': (body) => ({ ...baseInfo, ...info, ...body }),
      '/api/user/userNoticeList': (body) => {
        const list = body.state ? notices.filter((n) => n.state === body.state) : notices;
        return { list, total: list.length, pageNum: 1, pageSize: 10 };
      },
      '/api/user/newUserNotice': () => ({ count: unread }),
      '/api/user/readNotice': () => {
        unread = 0;
        notices[0] = notice('1', 2);
        return null;
      },
      '/api/user/readNoticeAll': () => {
        unread = 0;
        return { count: 1 };
      },
      '/api/user/deleteNotice': () => null,
      '/api/user/updatePassword': () => ({ loggedOut: false }),
      '/api/user/setSignPassword': () => null,
      '/api/user/getWeChatPublicAttentionUrl': () => ({
        url: 'https://open.weixin.qq.com/connect?x=1',
        state: 's1',
      }),
      '/api/user/bindWeChat': () => ({ followed: true }),
      '/api/user/unbindWeChat': () => null,
      '/api/file/upload': () => ({
        url: '/files/0123456789abcdef0123456789abcdef.png',
        size: 10,
        type: 'png',
      }),
      ...overrides.overrides,
    },
  });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function open(path = PAGE) {
  const view = renderApp(path);
  await screen.findByTestId('profile-card');
  return view;
}

describe('personal centre: profile', () => {
  it('shows the profile and saves the changed fields', async () => {
    const server = serve();
    await open();
    expect(screen.getByTestId('profile-card')).toHaveTextContent('Demo Cold Chain');
    expect(screen.getByTestId('profile-card')).toHaveTextContent('Head office');
    const name = screen.getByTestId('profile-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ana Lim');
    await userEvent.type(screen.getByTestId('profile-phone'), '13800001234');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByText('Personal information saved')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updateUserInfo')[0]).toEqual({
      name: 'Ana Lim',
      gender: 0,
      phone: '13800001234',
      altPhone: '',
      email: 'demo@example.com',
    });
  });

  it('refuses a one-letter name, a bad phone and a bad e-mail before sending', async () => {
    const server = serve();
    await open();
    await userEvent.clear(screen.getByTestId('profile-name'));
    await userEvent.type(screen.getByTestId('profile-name'), 'A');
    await userEvent.type(screen.getByTestId('profile-alt-phone'), '12ab');
    await userEvent.clear(screen.getByTestId('profile-email'));
    await userEvent.type(screen.getByTestId('profile-email'), 'nope');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(
      await screen.findByText('Name must be 2-20 letters and digits, or 2-100 characters in Chinese'),
    ).toBeInTheDocument();
    expect(screen.getByText('Enter a correct mobile number')).toBeInTheDocument();
    expect(screen.getByText('Enter a correct e-mail address')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updateUserInfo')).toHaveLength(0);
  });

  it('uploads a profile picture of at most 1 MB as an avatar and saves it', async () => {
    const server = serve();
    await open();
    const avatarInput = () =>
      screen.getByTestId('profile-card').querySelector('input[type=file]') as HTMLInputElement;
    const big = new File([new Uint8Array(1_048_577)], 'big.png', { type: 'image/png' });
    await userEvent.upload(avatarInput(), big);
    expect(await screen.findByText('The profile picture must be at most 1 MB')).toBeInTheDocument();
    expect(bodies(server, '/api/file/upload')).toHaveLength(0);

    const small = new File([new Uint8Array(100)], 'me.png', { type: 'image/png' });
    // The picker renders a fresh input after each pick.
    await userEvent.upload(avatarInput(), small);
    expect(await screen.findByText('Profile picture changed')).toBeInTheDocument();
    expect(bodies(server, '/api/file/upload')[0]).toMatchObject({ purpose: 'avatar' });
    expect(bodies(server, '/api/user/updateUserInfo')[0]).toEqual({
      headImg: '/files/0123456789abcdef0123456789abcdef.png',
    });
  });

  it('turns the alarm sound on', async () => {
    const server = serve();
    await open();
    await userEvent.click(screen.getByTestId('profile-alarm-voice'));
    expect(await screen.findByText('Alarm sound turned on')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updateUserInfo')[0]).toEqual({ pcAlarmVoice: true });
  });
});

describe('personal centre: passwords', () => {
  it("opens the password panel from the user menu's change-password entry", async () => {
    serve();
    renderApp('/home');
    await userEvent.click(await screen.findByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-password'));
    expect(await screen.findByTestId('password-panel')).toBeVisible();
    expect(currentLocation.path).toBe(`${PAGE}?panel=password`);
  });

  it("says 'Both Password Enter Not Match' and sends nothing, then changes the password", async () => {
    const server = serve();
    await open(`${PAGE}?panel=password`);
    await userEvent.type(screen.getByTestId('password-old'), 'OldPass123');
    await userEvent.type(screen.getByTestId('password-new'), 'NewPass123');
    await userEvent.type(screen.getByTestId('password-confirm'), 'NewPass124');
    await userEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Both Password Enter Not Match')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updatePassword')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('password-confirm'));
    await userEvent.type(screen.getByTestId('password-confirm'), 'NewPass123');
    await userEvent.click(screen.getByTestId('password-submit'));
    expect(
      await screen.findByText('Password changed; other devices have been logged out'),
    ).toBeInTheDocument();
    expect(bodies(server, '/api/user/updatePassword')[0]).toEqual({
      oldPassword: 'OldPass123',
      password: 'NewPass123',
      confirmPassword: 'NewPass123',
    });
  });

  it('speaks Chinese to a Chinese user', async () => {
    const server = serve();
    await i18n.changeLanguage('zh-CN');
    await open(`${PAGE}?panel=password`);
    expect(screen.getByRole('tab', { name: '修改密码' })).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('password-old'), 'OldPass123');
    await userEvent.type(screen.getByTestId('password-new'), 'NewPass123');
    await userEvent.type(screen.getByTestId('password-confirm'), 'NewPass12');
    await userEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updatePassword')).toHaveLength(0);
  });

  it('refuses a new password that is not 8-20 letters and digits', async () => {
    const server = serve();
    await open(`${PAGE}?panel=password`);
    await userEvent.type(screen.getByTestId('password-old'), 'OldPass123');
    await userEvent.type(screen.getByTestId('password-new'), 'short');
    await userEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Password must be 8-20 English letters and digits')).toBeInTheDocument();
    expect(bodies(server, '/api/user/updatePassword')).toHaveLength(0);
  });

  it('sets a signature password, and asks for the current one to change it', async () => {
    const server = serve();
    const view = await open(`${PAGE}?panel=signPassword`);
    expect(screen.getByTestId('sign-state')).toHaveTextContent('Not set');
    expect(screen.queryByTestId('sign-old')).toBeNull();
    await userEvent.type(screen.getByTestId('sign-new'), 'abc12');
    await userEvent.type(screen.getByTestId('sign-confirm'), 'abc12');
    await userEvent.click(screen.getByTestId('sign-submit'));
    expect(
      await screen.findByText('Signature password must be 6-20 English letters and digits'),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId('sign-new'));
    await userEvent.type(screen.getByTestId('sign-new'), 'abc123');
    await userEvent.clear(screen.getByTestId('sign-confirm'));
    await userEvent.type(screen.getByTestId('sign-confirm'), 'abc123');
    await userEvent.click(screen.getByTestId('sign-submit'));
    expect(await screen.findByText('Signature password saved')).toBeInTheDocument();
    expect(bodies(server, '/api/user/setSignPassword')[0]).toEqual({
      password: 'abc123',
      confirmPassword: 'abc123',
    });
    view.unmount();

    const second = serve({ signPasswordSet: true });
    await open(`${PAGE}?panel=signPassword`);
    await userEvent.type(screen.getByTestId('sign-old'), 'abc123');
    await userEvent.type(screen.getByTestId('sign-new'), 'new456');
    await userEvent.type(screen.getByTestId('sign-confirm'), 'new456');
    await userEvent.click(screen.getByTestId('sign-submit'));
    await waitFor(() => expect(bodies(second, '/api/user/setSignPassword')).toHaveLength(1));
    expect(bodies(second, '/api/user/setSignPassword')[0]).toEqual({
      oldPassword: 'abc123',
      password: 'new456',
      confirmPassword: 'new456',
    });
  });

  it('changes a forgotten signature password with the login password instead', async () => {
    const server = serve({ signPasswordSet: true });
    await open(`${PAGE}?panel=signPassword`);
    await userEvent.click(screen.getByTestId('sign-forgot'));
    expect(screen.queryByTestId('sign-old')).toBeNull();
    await userEvent.click(screen.getByTestId('sign-submit'));
    expect(await screen.findByText('Please enter Login password')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('sign-login-password'), 'Login1234');
    await userEvent.type(screen.getByTestId('sign-new'), 'new456');
    await userEvent.type(screen.getByTestId('sign-confirm'), 'new456');
    await userEvent.click(screen.getByTestId('sign-submit'));
    await waitFor(() => expect(bodies(server, '/api/user/setSignPassword')).toHaveLength(1));
    // Only the proof the form shows travels: no empty current signature password.
    expect(bodies(server, '/api/user/setSignPassword')[0]).toEqual({
      loginPassword: 'Login1234',
      password: 'new456',
      confirmPassword: 'new456',
    });
  });
});

describe('personal centre: notices', () => {
  it('lists my notices, filters by state, and reading one updates the badge', async () => {
    const server = serve();
    await open();
    const row = await screen.findByTestId('notice-row-1');
    expect(row).toHaveTextContent('Notice 1');
    expect(within(row).getByTestId('notice-state')).toHaveTextContent('Unread');
    expect(within(screen.getByTestId('notice-row-2')).getByTestId('notice-state')).toHaveTextContent(
      'Resolved',
    );
    await waitFor(() => expect(screen.getByTestId('notice-bell')).toHaveTextContent('1'));
    const badgeCalls = bodies(server, '/api/user/newUserNotice').length;

    await userEvent.click(within(row).getByTestId('notice-read'));
    await waitFor(() => expect(bodies(server, '/api/user/readNotice')).toEqual([{ id: '1' }]));
    await waitFor(() =>
      expect(within(screen.getByTestId('notice-row-1')).getByTestId('notice-state')).toHaveTextContent(
        'Read',
      ),
    );
    // The badge asks the server again, so its count follows the read.
    await waitFor(() => expect(bodies(server, '/api/user/newUserNotice').length).toBeGreaterThan(badgeCalls));

    fireEvent.mouseDown(within(screen.getByTestId('notice-filter')).getByRole('combobox'));
    await userEvent.click((await screen.findAllByTitle('Resolved')).at(-1)!);
    await waitFor(() =>
      expect(bodies(server, '/api/user/userNoticeList').at(-1)).toEqual({
        pageNum: 1,
        pageSize: 10,
        state: 3,
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('notice-row-1')).toBeNull());
  });

  it('marks all read and deletes a notice after confirmation', async () => {
    const server = serve();
    await open();
    await screen.findByTestId('notice-row-1');
    await userEvent.click(screen.getByTestId('notice-read-all'));
    expect(await screen.findByText('1 notices marked read')).toBeInTheDocument();
    expect(bodies(server, '/api/user/readNoticeAll')).toHaveLength(1);

    await userEvent.click(within(screen.getByTestId('notice-row-2')).getByTestId('notice-delete'));
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Notice deleted')).toBeInTheDocument();
    expect(bodies(server, '/api/user/deleteNotice')).toEqual([{ id: '2' }]);
  });

  it('opens the personal centre from the notification bell', async () => {
    serve();
    renderApp('/home');
    await userEvent.click(await screen.findByTestId('notice-bell'));
    expect(await screen.findByTestId('notice-list')).toBeInTheDocument();
    expect(currentLocation.path).toBe(PAGE);
  });
});

describe('personal centre: WeChat', () => {
  it('sends the user to WeChat with the return address of this page', async () => {
    const go = vi.spyOn(browser, 'go').mockImplementation(() => {});
    const server = serve();
    await open(`${PAGE}?panel=wechat`);
    expect(screen.getByTestId('wechat-bound')).toHaveTextContent('Not bound');
    await userEvent.click(screen.getByTestId('wechat-bind'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://open.weixin.qq.com/connect?x=1'));
    expect(bodies(server, '/api/user/getWeChatPublicAttentionUrl')[0]).toEqual({
      redirectUri: `${window.location.origin}/user/personalCenter?panel=wechat`,
    });
  });

  it('binds with the code WeChat returns, once, and clears it from the address', async () => {
    const server = serve();
    await open(`${PAGE}?code=wx-code&state=s1`);
    expect(await screen.findByText('WeChat bound')).toBeInTheDocument();
    expect(bodies(server, '/api/user/bindWeChat')).toEqual([{ code: 'wx-code', state: 's1' }]);
    await waitFor(() => expect(currentLocation.path).toBe(`${PAGE}?panel=wechat`));
  });

  it("shows 'Bind failed, please retry' when the server refuses the code", async () => {
    serve({}, { overrides: { '/api/user/bindWeChat': envelope(null, 500, 'Bind failed, please retry') } });
    await open(`${PAGE}?code=bad&state=s1`);
    expect(await screen.findByText('Bind failed, please retry')).toBeInTheDocument();
  });

  it('warns a bound user who does not follow the official account that no alarm reaches WeChat', async () => {
    serve({ wechatBound: true, wechatFollowed: false });
    await i18n.changeLanguage('zh-CN');
    await open(`${PAGE}?panel=wechat`);
    expect(await screen.findByTestId('wechat-not-following')).toHaveTextContent(
      '报警消息目前不会推送到您的微信。如需接收，请关注公众号',
    );
  });

  it('shows no such warning while the user follows the account', async () => {
    serve({ wechatBound: true, wechatFollowed: true });
    await open(`${PAGE}?panel=wechat`);
    await screen.findByTestId('wechat-followed');
    expect(screen.queryByTestId('wechat-not-following')).toBeNull();
  });

  it('shows the follow status and unbinds after confirmation', async () => {
    const server = serve({ wechatBound: true, wechatFollowed: true });
    await open(`${PAGE}?panel=wechat`);
    expect(screen.getByTestId('wechat-followed')).toHaveTextContent(
      'Following: alarm messages are sent to WeChat',
    );
    await userEvent.click(screen.getByTestId('wechat-unbind'));
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('WeChat unbound')).toBeInTheDocument();
    expect(bodies(server, '/api/user/unbindWeChat')).toHaveLength(1);
  });
});

describe('feedback images', () => {
  async function openFeedback() {
    renderApp('/home');
    await userEvent.click(await screen.findByTestId('feedback-open'));
    await userEvent.type(await screen.findByTestId('feedback-content'), 'See the pictures');
    return document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
  }
  const png = (name: string) => new File([new Uint8Array(10)], name, { type: 'image/png' });

  it('uploads up to 3 images and sends their paths comma-joined', async () => {
    let n = 0;
    const server = serve(
      {},
      {
        overrides: {
          '/api/device/addCalibrationImg': () => {
            n += 1;
            const url = `/files/${String(n).padStart(32, '0')}.png`;
            return { urls: [url], imgUrl: url };
          },
        },
      },
    );
    const input = await openFeedback();
    await userEvent.upload(input, [png('a.png'), png('b.png')]);
    await waitFor(() => expect(bodies(server, '/api/device/addCalibrationImg')).toHaveLength(2));
    expect(bodies(server, '/api/device/addCalibrationImg')[0]).toMatchObject({ purpose: 'feedback' });
    await waitFor(() => expect(document.querySelectorAll('.ant-upload-list-item-done')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Thank you, your feedback was sent')).toBeInTheDocument();
    expect(bodies(server, '/api/user/addFeedback')[0]).toEqual({
      content: 'See the pictures',
      category: 7,
      imgUrl: `/files/${'1'.padStart(32, '0')}.png,/files/${'2'.padStart(32, '0')}.png`,
      source: 1,
    });
  });

  it('shows an error toast for a fourth image and does not upload it', async () => {
    const server = serve(
      {},
      {
        overrides: {
          '/api/device/addCalibrationImg': () => ({ urls: ['/files/x.png'], imgUrl: '/files/x.png' }),
        },
      },
    );
    const input = await openFeedback();
    await userEvent.upload(input, [png('a.png'), png('b.png'), png('c.png'), png('d.png')]);
    expect(await screen.findByText('At most 3 images can be attached')).toBeInTheDocument();
    await waitFor(() => expect(bodies(server, '/api/device/addCalibrationImg')).toHaveLength(3));
  });
});

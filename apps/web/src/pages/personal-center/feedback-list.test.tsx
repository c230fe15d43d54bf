import type { FeedbackView } from '@coldchain/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEEDBACK_LIST_PATH } from '../../api/calls';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const WAIT = { timeout: 20_000 };

function sent(n: number): FeedbackView {
  return {
    id: `f${n}`,
    content: `Feedback number ${n}`,
    category: n === 1 ? 5 : 7,
    images: n === 1 ? ['/files/feedback/a.png'] : [],
    createTime: Date.UTC(2026, 0, n, 8, 0, 0),
    companyName: n === 1 ? 'Demo Cold Chain' : '',
  };
}

/** The given feedback, newest first, paged as the server pages it. */
function serve(all: FeedbackView[]) {
  return stubServer({
    overrides: {
      '/api/user/personalInfo': () => ({
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
      }),
      '/api/user/addFeedback': (body) => {
        all.unshift({
          ...sent(99),
          id: 'new',
          content: String(body.content),
          category: Number(body.category),
        });
        return { id: 'new' };
      },
      [FEEDBACK_LIST_PATH]: (body) => {
        const pageNum = Number(body.pageNum);
        const pageSize = Number(body.pageSize);
        return {
          list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize),
          total: all.length,
          pageNum,
          pageSize,
        };
      },
    },
  });
}

const listBodies = (server: ReturnType<typeof stubServer>) =>
  server.mock.calls
    .filter(([input]) => String(input) === FEEDBACK_LIST_PATH)
    .map(([, init]) => JSON.parse(String(init?.body)));

beforeAll(async () => {
  await import('.');
}, 60_000);

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('my feedback (personal centre)', () => {
  it('lists what the user sent, with its category, company and images, and pages on', async () => {
    const all = Array.from({ length: 12 }, (_, i) => sent(i + 1));
    const server = serve(all);
    renderApp('/user/personalCenter?panel=feedback');
    const first = await screen.findByTestId('feedback-item-f1', {}, WAIT);
    expect(first).toHaveTextContent('Alarm problem');
    expect(first).toHaveTextContent('Feedback number 1');
    expect(first).toHaveTextContent('Sent in Demo Cold Chain');
    expect(within(first).getByRole('img')).toHaveAttribute('src', '/files/feedback/a.png');
    expect(screen.getByTestId('feedback-item-f2')).toHaveTextContent('Other');
    expect(screen.queryByTestId('feedback-item-f11')).toBeNull();
    expect(listBodies(server)).toEqual([{ pageNum: 1, pageSize: 10 }]);

    await userEvent.click(within(screen.getByTestId('feedback-list')).getByTitle('2'));
    expect(await screen.findByTestId('feedback-item-f11', {}, WAIT)).toHaveTextContent('Feedback number 11');
    expect(listBodies(server)).toContainEqual({ pageNum: 2, pageSize: 10 });
  });

  it('a feedback sent from the top bar appears in the open list', async () => {
    serve([sent(1)]);
    renderApp('/user/personalCenter?panel=feedback');
    await screen.findByTestId('feedback-item-f1', {}, WAIT);
    await userEvent.click(screen.getByTestId('feedback-open'));
    await userEvent.type(await screen.findByTestId('feedback-content'), 'Export is slow');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('feedback-item-new', {}, WAIT)).toHaveTextContent('Export is slow');
  });

  it('says so in Chinese when nothing was sent', async () => {
    serve([]);
    await i18n.changeLanguage('zh-CN');
    renderApp('/user/personalCenter?panel=feedback');
    expect(await screen.findByText('您还没有提交过反馈', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '我的反馈' })).toHaveAttribute('aria-selected', 'true');
  });
});

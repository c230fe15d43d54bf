import type { CreditLedgerRowView, OrderView, PersonalInfo } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { calledPaths, demoPowers, stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';

const PAGE = '/user/addedServices';
const SERVICE_LIST = '/user/addedServices/serviceList';
const T = Date.UTC(2026, 5, 1, 8, 0, 0);

const ledger: CreditLedgerRowView[] = [
  {
    id: '3',
    kind: 'debit',
    amount: -2,
    channel: 'sms',
    alarm: {
      id: '77',
      alarmType: 'overLimit',
      deviceId: '1',
      deviceName: 'Vaccine fridge',
      deviceSerial: 'D1',
    },
    order: null,
    reason: '',
    createTime: T,
  },
  {
    id: '1',
    kind: 'grant',
    amount: 100,
    channel: null,
    alarm: null,
    order: null,
    reason: 'starter credit',
    createTime: T - 86_400_000,
  },
];

const order: OrderView = {
  id: '11',
  orderNo: 'CC20260601000011',
  kind: 'recovery',
  status: 1,
  months: 1,
  startTime: T - 10 * 86_400_000,
  endTime: T - 86_400_000,
  amount: 30,
  currency: 'RM',
  paymentMethod: 'approval',
  invoiceStatus: 0,
  createdBy: 'u1',
  createdByName: 'Demo Admin',
  createTime: T,
  decideTime: null,
  lines: [],
};

function serve(options: { balance?: number; authTags?: string[] } = {}) {
  return stubServer({
    overrides: {
      ...(options.authTags
        ? { '/api/index/getUserPowers': () => ({ ...demoPowers(), authTags: options.authTags }) }
        : {}),
      '/api/credit/balance': () => ({ balance: options.balance ?? 98, currency: 'credit' }),
      '/api/credit/pageLedger': (body) => {
        const list = ledger.filter((r) => !body.kind || r.kind === body.kind);
        return { list, total: list.length, pageNum: 1, pageSize: 20 };
      },
      '/api/credit/exportLedger': new Response('time,kind\r\n', {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="credit-ledger-20260601-20260602.csv"',
        },
      }),
      '/api/order/pageOrders': () => ({ list: [order], total: 1, pageNum: 1, pageSize: 10 }),
      '/api/order/paymentOptions': () => ({
        online: false,
        transferDetails: 'Maybank 5140',
        creditUnitPrice: 0.1,
        currency: 'RM',
      }),
      '/api/order/buyCredits': () => ({ id: '32', orderNo: 'CC20260601000032' }),
      '/api/order/priceList': () => ({
        currency: 'RM',
        renewal: { basic: 10, standard: 15, elite: 20, premium: 30 },
        recovery: { basic: 20, standard: 30, elite: 40, premium: 50 },
        recoveryMonthDays: 30,
      }),
      '/api/device/pageDevices': () => ({ list: [], total: 0, pageNum: 1, pageSize: 200 }),
    },
  });
}

function bodiesOf(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)));
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

describe('expense management', () => {
  it('shows the balance, the ledger with the alarm each message paid for, and all orders', async () => {
    const server = serve();
    renderApp(PAGE);
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('98 credits');
    const debit = await screen.findByTestId('ledger-row-3');
    expect(debit).toHaveTextContent('Message sent');
    expect(debit).toHaveTextContent('-2');
    expect(debit).toHaveTextContent('SMS');
    expect(debit).toHaveTextContent('Over-limit alarm on Vaccine fridge');
    expect(within(debit).getByTestId('ledger-alarm-link')).toHaveAttribute(
      'href',
      '/alarm/alarmInfo/alarmDetail?id=77',
    );
    const grant = screen.getByTestId('ledger-row-1');
    expect(grant).toHaveTextContent('+100');
    expect(grant).toHaveTextContent('Starter credit');
    // The orders of every kind: no kind is sent.
    expect(await screen.findByTestId('order-row-11')).toHaveTextContent('CC20260601000011');
    expect(bodiesOf(server, '/api/order/pageOrders')[0]).toEqual({ pageNum: 1, pageSize: 10 });
    expect(screen.queryByTestId('credit-used-up')).toBeNull();
  });

  it('filters the ledger by type and starts again at page 1', async () => {
    const server = serve();
    renderApp(PAGE);
    await screen.findByTestId('ledger-row-3');
    await userEvent.click(within(screen.getByTestId('ledger-filter-kind')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Top-up / grant'));
    await waitFor(() => expect(screen.queryByTestId('ledger-row-3')).toBeNull());
    expect(bodiesOf(server, '/api/credit/pageLedger').at(-1)).toEqual({
      pageNum: 1,
      pageSize: 20,
      kind: 'grant',
    });
  });

  it('exports the ledger with the chosen format and the filters', async () => {
    const server = serve();
    URL.createObjectURL = vi.fn(() => 'blob:ledger');
    URL.revokeObjectURL = vi.fn();
    renderApp(PAGE);
    await screen.findByTestId('ledger-row-3');
    await userEvent.click(screen.getByTestId('ledger-export'));
    await userEvent.click(await screen.findByText('CSV (.csv)'));
    await userEvent.click(screen.getByTestId('audit-export-submit'));
    await waitFor(() => expect(calledPaths(server)).toContain('/api/credit/exportLedger'));
    const body = bodiesOf(server, '/api/credit/exportLedger')[0];
    expect(body).toMatchObject({ format: 'csv' });
    expect(body.endTime - body.startTime).toBe(86_400_000);
  });

  it('orders message credits from the balance, then leads to the top-up records to pay', async () => {
    const server = serve({ authTags: demoPowers(['data:view', 'billing:topUp']).authTags });
    renderApp(PAGE);
    await userEvent.click(await screen.findByTestId('credit-top-up'));
    const count = await screen.findByTestId('buy-credits-count');
    await userEvent.clear(count);
    await userEvent.type(count, '3000');
    expect(screen.getByTestId('buy-credits-total')).toHaveTextContent('RM 300.00');
    await userEvent.click(screen.getByTestId('buy-credits-submit'));
    await waitFor(() => expect(bodiesOf(server, '/api/order/buyCredits')).toEqual([{ credits: 3000 }]));
    await waitFor(() => expect(currentLocation.path).toBe(SERVICE_LIST));
  });

  it('warns when the credit is used up, and hides top-up and orders without the top-up permission', async () => {
    const server = serve({ balance: 0, authTags: ['home:view', 'billing:view'] });
    renderApp(PAGE);
    expect(await screen.findByTestId('credit-used-up')).toBeInTheDocument();
    expect(screen.getByTestId('orders-refused')).toBeInTheDocument();
    expect(screen.queryByTestId('credit-top-up')).toBeNull();
    expect(calledPaths(server)).not.toContain('/api/order/pageOrders');
  });

  it('speaks Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(PAGE);
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('98 条');
    const debit = await screen.findByTestId('ledger-row-3');
    expect(debit).toHaveTextContent('消息扣费');
    expect(debit).toHaveTextContent('短信');
    expect(screen.getByTestId('ledger-row-1')).toHaveTextContent('开户赠送');
  });
});

describe('the low-credit reminder', () => {
  it('links to expense management from the notice list', async () => {
    const info: PersonalInfo = {
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
    stubServer({
      overrides: {
        '/api/user/personalInfo': () => info,
        '/api/user/userNoticeList': () => ({
          list: [
            {
              id: '5',
              kind: 'credit',
              title: 'Message credit used up',
              content: 'Please top up the credit.',
              state: 1,
              createTime: T,
            },
          ],
          total: 1,
          pageNum: 1,
          pageSize: 10,
        }),
        '/api/credit/balance': () => ({ balance: 0, currency: 'credit' }),
        '/api/credit/pageLedger': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
        '/api/order/pageOrders': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
      },
    });
    renderApp('/user/personalCenter');
    await userEvent.click(await screen.findByTestId('notice-credit-link'));
    await waitFor(() => expect(currentLocation.path).toBe(PAGE));
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('0 credits');
  });
});

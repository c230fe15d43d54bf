import type { InvoiceableOrderView, InvoiceView, OrderView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';

const T = Date.UTC(2026, 5, 1, 8, 0, 0);
const page = <X,>(list: X[]) => ({ list, total: list.length, pageNum: 1, pageSize: 10 });

const invoice: InvoiceView = {
  id: '5',
  status: 2,
  type: 'electronic',
  title: 'Acme Sdn Bhd',
  amount: 250.5,
  currency: 'RM',
  taxpayerId: '',
  bank: '',
  account: '',
  companyAddress: '',
  companyPhone: '',
  mailingAddress: '',
  postcode: '',
  recipient: '',
  contact: '',
  email: 'f@acme.test',
  proofImage: null,
  rejectReason: null,
  hasPdf: true,
  applicantName: 'Demo Admin',
  departmentName: 'Pharmacy',
  createTime: T,
  decideTime: T,
  orders: [{ id: '11', orderNo: 'CC20260601000011', kind: 'credits', amount: 250.5, lateFee: 0 }],
};
const rejected: InvoiceView = { ...invoice, id: '6', status: 3, hasPdf: false, rejectReason: 'Wrong title' };
const invoiceable: InvoiceableOrderView[] = [
  { id: '21', orderNo: 'CC20260601000021', kind: 'credits', amount: 150, lateFee: 0, createTime: T },
  // Paid late: the invoice covers the late fee paid with it.
  { id: '22', orderNo: 'CC20260601000022', kind: 'renewal', amount: 60, lateFee: 0.3, createTime: T },
];

function serve() {
  return stubServer({
    authTags: ['data:view', 'invoice:edit', 'billing:topUp'],
    overrides: {
      '/api/invoice/pageInvoices': () => page([invoice, rejected]),
      '/api/invoice/invoiceableOrders': () => invoiceable,
      '/api/invoice/applyInvoice': () => ({ id: '7' }),
      '/api/invoice/downloadInvoice': new Response('%PDF-1.4', {
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="invoice-5.pdf"',
        },
      }),
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

describe('invoice management', () => {
  it('lists applications with status, reason and the PDF download', async () => {
    const server = serve();
    const created = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    renderApp('/user/applicationForInvoice');
    const row = await screen.findByTestId('invoice-row-5');
    expect(row).toHaveTextContent('RM 250.50');
    expect(row).toHaveTextContent('Invoice generated');
    expect(row).toHaveTextContent('CC20260601000011');
    expect(screen.getByTestId('invoice-row-6')).toHaveTextContent('Wrong title');
    await userEvent.click(within(row).getByTestId('invoice-download'));
    await waitFor(() => expect(bodiesOf(server, '/api/invoice/downloadInvoice')).toEqual([{ id: '5' }]));
  });

  it('sums the picked orders exactly, refuses under RM200 and sends the fields', async () => {
    const server = serve();
    renderApp('/user/applicationForInvoice');
    await userEvent.click(await screen.findByTestId('invoice-apply'));
    await userEvent.click(await screen.findByTestId('invoice-order-21'));
    expect(screen.getByTestId('invoice-sum')).toHaveTextContent('RM 150.00');
    expect(screen.getByTestId('invoice-minimum')).toHaveTextContent('Minimum invoice amount RM200');
    expect(screen.getByText(/CC20260601000022 .* \+ Late fee RM 0.30/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('invoice-order-22'));
    expect(screen.getByTestId('invoice-sum')).toHaveTextContent('RM 210.30');
    expect(screen.queryByTestId('invoice-minimum')).toBeNull();
    await userEvent.type(screen.getByTestId('invoice-title'), 'Acme Sdn Bhd');
    await userEvent.type(screen.getByTestId('invoice-email'), 'finance@acme.test');
    await userEvent.type(screen.getByTestId('invoice-taxpayerId'), 'C123');
    await userEvent.click(screen.getByTestId('invoice-apply-submit'));
    await waitFor(() => expect(bodiesOf(server, '/api/invoice/applyInvoice')).toHaveLength(1));
    expect(bodiesOf(server, '/api/invoice/applyInvoice')[0]).toMatchObject({
      orderIds: ['21', '22'],
      type: 'electronic',
      title: 'Acme Sdn Bhd',
      email: 'finance@acme.test',
      taxpayerId: 'C123',
    });
  });

  it('shows yuan in Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp('/user/applicationForInvoice');
    const row = await screen.findByTestId('invoice-row-5');
    expect(row).toHaveTextContent('250.50 元');
    expect(row).toHaveTextContent('已开票');
  });

  it('the department view asks for the department of the page and offers no changes', async () => {
    const server = serve();
    renderApp('/user/organization/orgApplicationForInvoice?id=42');
    const row = await screen.findByTestId('invoice-row-5');
    expect(row).toHaveTextContent('Pharmacy');
    expect(bodiesOf(server, '/api/invoice/pageInvoices')[0]).toEqual({
      pageNum: 1,
      pageSize: 10,
      departmentId: '42',
    });
    expect(screen.queryByTestId('invoice-apply')).toBeNull();
  });
});

describe('orders list', () => {
  const order: OrderView = {
    id: '31',
    orderNo: 'CC20260601000031',
    kind: 'credits',
    status: 1,
    months: 0,
    startTime: null,
    endTime: null,
    amount: 100,
    currency: 'RM',
    paymentMethod: 'approval',
    invoiceStatus: 0,
    createdBy: 'u1',
    createdByName: 'Demo Admin',
    createTime: T,
    decideTime: null,
    lines: [],
    credits: 1000,
    dueDate: '2026-05-20',
    lateFee: 0.6,
    proofImage: null,
    rejectReason: null,
  };
  function serveOrders(online: boolean) {
    return stubServer({
      authTags: ['data:view', 'invoice:edit', 'billing:topUp'],
      overrides: {
        '/api/order/pageServiceList': () => page([order]),
        '/api/order/paymentOptions': () => ({
          online,
          transferDetails: 'Maybank 5140',
          creditUnitPrice: 0.1,
          currency: 'RM',
        }),
        '/api/order/buyCredits': () => ({ id: '32', orderNo: 'CC20260601000032' }),
        '/api/order/payOnline': () => ({ url: 'https://pay.example/cs_1' }),
      },
    });
  }

  it('shows every field of an order, its late fee, and buys credits', async () => {
    const server = serveOrders(false);
    renderApp('/user/addedServices/serviceList');
    const row = await screen.findByTestId('service-order-31');
    for (const text of [
      'Message credits',
      'CC20260601000031',
      '1000 message credits',
      'Demo Admin',
      'RM 100.00',
      'Not invoiced',
      'Pending payment or approval',
    ]) {
      expect(row).toHaveTextContent(text);
    }
    expect(within(row).getByTestId('order-late-fee')).toHaveTextContent('RM 0.60');
    await userEvent.click(screen.getByTestId('buy-credits'));
    const count = await screen.findByTestId('buy-credits-count');
    await userEvent.clear(count);
    await userEvent.type(count, '2500');
    expect(screen.getByTestId('buy-credits-total')).toHaveTextContent('RM 250.00');
    await userEvent.click(screen.getByTestId('buy-credits-submit'));
    await waitFor(() => expect(bodiesOf(server, '/api/order/buyCredits')).toEqual([{ credits: 2500 }]));
  });

  it('offers bank transfer only when online payment is off, and online when it is on', async () => {
    serveOrders(false);
    renderApp('/user/addedServices/serviceList');
    await userEvent.click(within(await screen.findByTestId('service-order-31')).getByTestId('order-pay'));
    expect(await screen.findByTestId('pay-transfer-submit')).toBeInTheDocument();
    expect(screen.getByTestId('pay-amount')).toHaveTextContent('RM 100.60');
    expect(screen.queryByTestId('pay-online')).toBeNull();
  });

  it('sends the browser to the checkout when paying online', async () => {
    const server = serveOrders(true);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderApp('/user/addedServices/serviceList');
    await userEvent.click(within(await screen.findByTestId('service-order-31')).getByTestId('order-pay'));
    await userEvent.click(await screen.findByTestId('pay-online'));
    await waitFor(() => expect(bodiesOf(server, '/api/order/payOnline')).toEqual([{ id: '31' }]));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/cs_1'));
  });
});

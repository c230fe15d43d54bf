import {
  buildMenuEntries,
  MENU_TREE,
  OPERATOR_MENU_TREE,
  type OperatorInvoiceView,
  type OperatorOrderView,
} from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { type Handler, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';

const T = Date.UTC(2026, 5, 1, 8, 0, 0);
const page = <X,>(list: X[]) => ({ list, total: list.length, pageNum: 1, pageSize: 10 });

const application: OperatorInvoiceView = {
  id: '5',
  status: 1,
  type: 'electronic',
  title: 'Acme Sdn Bhd',
  amount: 250,
  currency: 'RM',
  taxpayerId: 'C123',
  bank: 'Maybank',
  account: '5140',
  companyAddress: '',
  companyPhone: '',
  mailingAddress: '',
  postcode: '',
  recipient: '',
  contact: '',
  email: 'f@acme.test',
  proofImage: null,
  rejectReason: null,
  hasPdf: false,
  applicantName: 'Demo Admin',
  departmentName: '',
  createTime: T,
  decideTime: null,
  orders: [{ id: '11', orderNo: 'CC20260601000011', kind: 'credits', amount: 250, lateFee: 0 }],
  companyId: 'c1',
  companyName: 'Acme Cold',
  pdfFile: null,
};
const order: OperatorOrderView = {
  id: '31',
  orderNo: 'CC20260601000031',
  kind: 'credits',
  status: 1,
  months: 0,
  startTime: null,
  endTime: null,
  amount: 100,
  currency: 'RM',
  paymentMethod: 'transfer',
  invoiceStatus: 0,
  createdBy: 'u1',
  createdByName: 'Demo Admin',
  createTime: T,
  decideTime: null,
  lines: [],
  credits: 1000,
  proofImage: '/files/0123456789abcdef0123456789abcdef.png',
  companyId: 'c1',
  companyName: 'Acme Cold',
};

function serve(overrides: Record<string, Handler> = {}) {
  return stubServer({
    user: { isOperator: true, lastCompanyId: null, legalPerson: false },
    overrides: {
      '/api/index/getUserPowers': () => ({
        menus: buildMenuEntries(new Set(), new Set(), [...MENU_TREE, ...OPERATOR_MENU_TREE]),
        authTags: [],
        serviceAuthTags: [],
      }),
      '/api/index/getUserCompanys': () => [],
      '/api/operator/invoice/pageInvoices': () => page([application]),
      '/api/operator/invoice/issueInvoice': () => null,
      '/api/operator/invoice/rejectInvoice': () => null,
      '/api/operator/order/pageOrders': () => page([order]),
      '/api/operator/order/approveOrder': () => ({ ...order, status: 2 }),
      '/api/operator/order/rejectOrder': () => ({ ...order, status: 3 }),
      '/api/operator/order/setDueDate': () => ({ ...order, dueDate: '2026-12-15' }),
      '/api/file/upload': () => ({
        url: '/files/abcdefabcdefabcdefabcdefabcdefab.pdf',
        size: 10,
        type: 'pdf',
      }),
      ...overrides,
    },
  });
}
function bodiesOf(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls.filter(([input]) => String(input) === path).map(([, init]) => init?.body);
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

describe('operator invoices and orders', () => {
  it('issues an application with an uploaded PDF', async () => {
    const server = serve();
    renderApp('/operator/invoices');
    const row = await screen.findByTestId('operator-invoice-5');
    expect(row).toHaveTextContent('Acme Cold');
    expect(row).toHaveTextContent('RM 250.00');
    await userEvent.click(within(row).getByTestId('invoice-issue'));
    expect(await screen.findByTestId('invoice-details')).toHaveTextContent('CC20260601000011');
    const file = new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByTestId('invoice-pdf-input'), file);
    await screen.findByTestId('invoice-pdf-done');
    await userEvent.click(screen.getByTestId('invoice-issue-submit'));
    await waitFor(() => expect(bodiesOf(server, '/api/operator/invoice/issueInvoice')).toHaveLength(1));
    expect(JSON.parse(String(bodiesOf(server, '/api/operator/invoice/issueInvoice')[0]))).toEqual({
      id: '5',
      pdfFile: '/files/abcdefabcdefabcdefabcdefabcdefab.pdf',
    });
    const upload = bodiesOf(server, '/api/file/upload')[0] as FormData;
    expect(upload.get('purpose')).toBe('attachment');
  });

  it('rejects an application only with a reason', async () => {
    const server = serve();
    renderApp('/operator/invoices');
    await userEvent.click(
      within(await screen.findByTestId('operator-invoice-5')).getByTestId('invoice-reject'),
    );
    await userEvent.click(await screen.findByTestId('reject-submit'));
    expect(await screen.findByText('Enter the reason for rejecting')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('reject-reason'), 'Wrong taxpayer ID');
    await userEvent.click(screen.getByTestId('reject-submit'));
    await waitFor(() =>
      expect(
        bodiesOf(server, '/api/operator/invoice/rejectInvoice').map((b) => JSON.parse(String(b))),
      ).toEqual([{ id: '5', reason: 'Wrong taxpayer ID' }]),
    );
  });

  it('approves a pending order with its transfer proof in view', async () => {
    const server = serve();
    renderApp('/operator/orders');
    const row = await screen.findByTestId('operator-order-31');
    expect(row).toHaveTextContent('Bank transfer');
    expect(within(row).getByTestId('order-proof')).toBeInTheDocument();
    await userEvent.click(within(row).getByTestId('order-approve'));
    await userEvent.click(await screen.findByTestId('order-approve-confirm'));
    await waitFor(() =>
      expect(bodiesOf(server, '/api/operator/order/approveOrder').map((b) => JSON.parse(String(b)))).toEqual([
        { id: '31' },
      ]),
    );
  });

  it('gives a pending order a due date, and takes it away', async () => {
    const server = serve();
    renderApp('/operator/orders');
    const row = await screen.findByTestId('operator-order-31');
    const picker = within(row).getByLabelText('Due date');
    await userEvent.click(picker);
    await userEvent.type(picker, '2026-12-15{Enter}');
    await waitFor(() =>
      expect(bodiesOf(server, '/api/operator/order/setDueDate').map((b) => JSON.parse(String(b)))).toEqual([
        { id: '31', dueDate: '2026-12-15' },
      ]),
    );
    expect(await screen.findByText('Due date saved')).toBeInTheDocument();
  });
});

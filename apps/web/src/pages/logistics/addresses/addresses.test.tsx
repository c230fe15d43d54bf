import type { AddressView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { envelope, type Handler, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';

const PATH = '/logistics/addressManagement';
const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);
const SERVICE_OFF = 'The logistics service is not enabled for this company; ask your supplier';

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function address(overrides: Partial<AddressView> = {}): AddressView {
  return {
    id: 'a1',
    name: 'North warehouse',
    contact: 'Li Wei',
    phone: '13800138000',
    region: 'Guangdong/Shenzhen',
    address: '8 Cold Store Road',
    lng: 114.05,
    lat: 22.54,
    remarks: 'Dock 3',
    receiverCompany: null,
    createTime: NOW,
    updateTime: NOW,
    ...overrides,
  };
}

const addresses = [
  address(),
  address({
    id: 'a2',
    name: 'City clinic',
    lng: null,
    lat: null,
    remarks: '',
    receiverCompany: { code: '123456789012', name: 'City Clinic Co' },
  }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

/** The demo powers hold every menu tag; editing needs `logistics:edit` on top. */
function serve(overrides: Record<string, Handler | Response> = {}, authTags = ['logistics:edit']) {
  return stubServer({
    authTags,
    overrides: {
      '/api/logistics/pageAddresses': () => page(addresses),
      '/api/logistics/saveAddress': () => ({ id: 'a9' }),
      '/api/logistics/deleteAddress': () => null,
      ...overrides,
    },
  });
}

/** A test's limit: the first visit compiles the lazy page, slow on a shared 2-core machine. */
const SLOW_MS = 40_000;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('address management', () => {
  it(
    'lists the addresses and searches them by keyword',
    async () => {
      const server = serve();
      renderApp(PATH);
      const row = await screen.findByTestId('address-row-a1');
      expect(row).toHaveTextContent('Guangdong/Shenzhen 8 Cold Store Road');
      expect(row).toHaveTextContent('114.05000, 22.54000');
      expect(screen.getByTestId('address-row-a2')).toHaveTextContent('City Clinic Co');
      const search = within(screen.getByTestId('address-keyword')).getByRole('searchbox');
      await userEvent.type(search, ' clinic {Enter}');
      await waitFor(() =>
        expect(bodies(server, '/api/logistics/pageAddresses').at(-1)).toEqual({
          pageNum: 1,
          pageSize: 20,
          keyword: 'clinic',
        }),
      );
    },
    SLOW_MS,
  );

  it(
    'adds an address, checking the phone and the position pair before sending',
    async () => {
      const server = serve();
      renderApp(PATH);
      await screen.findByTestId('address-row-a1');
      await userEvent.click(screen.getByTestId('address-add'));
      await userEvent.type(await screen.findByTestId('address-name'), 'South dock');
      await userEvent.type(screen.getByTestId('address-contact'), 'Zhang San');
      await userEvent.type(screen.getByTestId('address-phone'), '12ab');
      await userEvent.type(screen.getByTestId('address-address'), '2 Harbour Rd');
      await userEvent.type(screen.getByTestId('address-lng'), '113.3');
      await userEvent.click(screen.getByTestId('address-save'));
      expect(await screen.findByText('Contact phone: enter a correct mobile number')).toBeInTheDocument();
      expect(screen.getByText('Enter both longitude and latitude, or neither')).toBeInTheDocument();
      expect(bodies(server, '/api/logistics/saveAddress')).toHaveLength(0);

      await userEvent.clear(screen.getByTestId('address-phone'));
      await userEvent.type(screen.getByTestId('address-phone'), '13900001111');
      await userEvent.type(screen.getByTestId('address-lat'), '23.1');
      await userEvent.click(screen.getByTestId('address-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/logistics/saveAddress')).toEqual([
          {
            name: 'South dock',
            contact: 'Zhang San',
            phone: '13900001111',
            region: '',
            address: '2 Harbour Rd',
            lng: 113.3,
            lat: 23.1,
            remarks: '',
            receiverCompanyCode: '',
          },
        ]),
      );
      await waitFor(() => expect(screen.queryByTestId('address-name')).toBeNull());
    },
    SLOW_MS,
  );

  it(
    'edits an address with its id and deletes one after confirmation',
    async () => {
      const server = serve();
      renderApp(PATH);
      await screen.findByTestId('address-row-a2');
      await userEvent.click(screen.getByTestId('address-edit-a2'));
      const name = await screen.findByTestId('address-name');
      expect(name).toHaveValue('City clinic');
      expect(screen.getByTestId('address-receiver-code')).toHaveValue('123456789012');
      await userEvent.clear(name);
      await userEvent.type(name, 'City clinic east');
      await userEvent.click(screen.getByTestId('address-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/logistics/saveAddress')[0]).toMatchObject({
          id: 'a2',
          name: 'City clinic east',
          lng: null,
          lat: null,
          receiverCompanyCode: '123456789012',
        }),
      );

      await userEvent.click(screen.getByTestId('address-delete-a1'));
      expect(bodies(server, '/api/logistics/deleteAddress')).toHaveLength(0);
      await userEvent.click(await screen.findByTestId('address-delete-confirm'));
      await waitFor(() => expect(bodies(server, '/api/logistics/deleteAddress')).toEqual([{ id: 'a1' }]));
      expect(await screen.findByText('Address deleted')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'shows the service refusal instead of the table, and no editing without the edit tag',
    async () => {
      serve({ '/api/logistics/pageAddresses': envelope(null, 500, SERVICE_OFF) });
      const view = renderApp(PATH);
      expect(await screen.findByTestId('address-refused')).toHaveTextContent(SERVICE_OFF);
      expect(document.querySelector('.ant-table')).toBeNull();
      view.unmount();
      vi.unstubAllGlobals();

      serve({}, []);
      renderApp(PATH);
      await screen.findByTestId('address-row-a1');
      expect(screen.queryByTestId('address-add')).toBeNull();
      expect(screen.queryByTestId('address-edit-a1')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'reads in Chinese',
    async () => {
      await i18n.changeLanguage('zh-CN');
      serve();
      renderApp(PATH);
      await screen.findByTestId('address-row-a1');
      expect(screen.getByTestId('page-title')).toHaveTextContent('地址管理');
      expect(screen.getByTestId('address-add')).toHaveTextContent('新增地址');
      expect(document.body.textContent).not.toMatch(/logistics\.address\./);
    },
    SLOW_MS,
  );
});

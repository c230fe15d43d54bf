import { AuthTags, buildMenuEntries, type DepartmentGroups } from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import { COUNTS, device } from '../test-fixtures';

const LIST = '/deviceManagement/monitoringDevice';
const devices = [device(), device({ id: '2', serial: 'DEMO0002', name: 'Freezer 2', state: 2 })];
const SELECT_MESSAGE = 'Select at least one device, time period or record';

const DEPARTMENTS: DepartmentGroups[] = [
  { id: 'd1', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
  { id: 'd2', pid: 'd1', name: 'Pharmacy', level: 2, groups: [] },
  {
    id: 'd3',
    pid: 'd1',
    name: 'Cold Store',
    level: 2,
    groups: [
      { id: 'g3', pid: '0', departmentId: 'd3', name: 'Cold rooms', state: 1, deviceCount: 0, children: [] },
    ],
  },
];

type Overrides = NonNullable<NonNullable<Parameters<typeof stubServer>[0]>['overrides']>;

/** Every right by default (a company administrator); fewer to test what others see. */
function serve(overrides: Overrides = {}, authTags: string[] = [...AuthTags]) {
  const tags = new Set(authTags);
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': () => ({
        menus: buildMenuEntries(tags, tags),
        authTags,
        serviceAuthTags: [],
      }),
      '/api/device/pageDevices': () => ({ list: devices, total: 2, pageNum: 1, pageSize: 20 }),
      '/api/device/countGroupByState': () => COUNTS,
      '/api/group/departmentGroups': () => DEPARTMENTS,
      '/api/personnel/memberOptions': () => [
        { id: 'u7', name: 'Nurse Lee' },
        { id: 'u8', name: 'Porter Tan' },
      ],
      '/api/device/batchTransfer': () => ({ count: 2 }),
      '/api/device/batchPermission': () => ({ count: 2 }),
      '/api/device/exportData': new Response('\uFEFFSerial number,Device\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="device-data-20250525-20250601.csv"',
        },
      }),
      ...overrides,
    },
  });
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

async function openList() {
  renderApp(LIST);
  return screen.findByTestId('device-row-DEMO0002');
}

async function selectBoth() {
  for (const serial of ['DEMO0001', 'DEMO0002'])
    await userEvent.click(within(screen.getByTestId(`device-row-${serial}`)).getByRole('checkbox'));
  expect(await screen.findByTestId('batch-selected')).toHaveTextContent('2 selected');
  // Ticking a row does not open the monitor.
  expect(currentLocation.path).toBe(LIST);
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('batch actions on monitors', () => {
  it('asks to select at least one device before any batch dialog opens', async () => {
    serve();
    await openList();
    for (const button of ['batch-transfer-open', 'batch-permission-open', 'batch-export-open']) {
      await userEvent.click(screen.getByTestId(button));
      expect((await screen.findAllByText(SELECT_MESSAGE)).length).toBeGreaterThan(0);
    }
    expect(screen.queryByTestId('batch-transfer-submit')).toBeNull();
  });

  it('transfers the selected monitors to a department and a group of it', async () => {
    const server = serve();
    await openList();
    await selectBoth();
    await userEvent.click(screen.getByTestId('batch-transfer-open'));
    await userEvent.click(await screen.findByTestId('batch-transfer-submit'));
    expect(await screen.findByText('Choose the department to transfer to')).toBeInTheDocument();
    expect(bodies(server, '/api/device/batchTransfer')).toEqual([]);

    fireEvent.mouseDown(within(screen.getByTestId('batch-transfer-department')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle(/Cold Store$/));
    fireEvent.mouseDown(within(screen.getByTestId('batch-transfer-group')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Cold rooms'));
    await userEvent.click(screen.getByTestId('batch-transfer-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/device/batchTransfer')).toEqual([
        { deviceIds: ['1', '2'], departmentId: 'd3', groupId: 'g3' },
      ]),
    );
    expect(await screen.findByText('2 monitors transferred')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('batch-selected')).toBeNull());
  });

  it('gives chosen people a permission on the selected monitors', async () => {
    const server = serve();
    await openList();
    await selectBoth();
    await userEvent.click(screen.getByTestId('batch-permission-open'));
    await userEvent.click(await screen.findByTestId('batch-permission-submit'));
    expect(await screen.findByText('Select at least one person')).toBeInTheDocument();
    fireEvent.mouseDown(within(screen.getByTestId('batch-permission-users')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Nurse Lee'));
    await userEvent.click(screen.getByLabelText('View and edit'));
    await userEvent.click(screen.getByTestId('batch-permission-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/device/batchPermission')).toEqual([
        { deviceIds: ['1', '2'], userIds: ['u7'], permission: 'edit' },
      ]),
    );
    expect(await screen.findByText('Permissions set on 2 monitors')).toBeInTheDocument();
  });

  it('shows who already holds a right when one monitor is selected', async () => {
    const server = serve({
      '/api/device/devicePermissions': () => [
        { userId: 'u7', name: 'Nurse Lee', account: 'lee@example.com', permission: 'edit' },
      ],
    });
    await openList();
    await userEvent.click(within(screen.getByTestId('device-row-DEMO0002')).getByRole('checkbox'));
    await userEvent.click(screen.getByTestId('batch-permission-open'));
    expect(await screen.findByTestId('device-permissions-current')).toHaveTextContent(
      'Nurse Lee · View and edit',
    );
    expect(bodies(server, '/api/device/devicePermissions')).toEqual([{ deviceId: '2' }]);
  });

  it('opens the export on the last 24 hours, needs a format, and saves the file the server names', async () => {
    const server = serve();
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    await openList();
    await selectBoth();
    await userEvent.click(screen.getByTestId('batch-export-open'));
    await userEvent.click(await screen.findByTestId('batch-export-submit'));
    expect(await screen.findByText('Select a file format')).toBeInTheDocument();
    // The period is filled in already (issue 20): no "select a period" message.
    expect(screen.queryByText(SELECT_MESSAGE, { selector: '.ant-form-item-explain-error' })).toBeNull();
    expect(bodies(server, '/api/device/exportData')).toEqual([]);

    await userEvent.click(screen.getByTestId('batch-export-preset-7d'));
    await userEvent.click(screen.getByLabelText('CSV (.csv)'));
    await userEvent.click(screen.getByTestId('batch-export-submit'));
    await waitFor(() => expect(bodies(server, '/api/device/exportData')).toHaveLength(1));
    const body = bodies(server, '/api/device/exportData')[0]!;
    expect(body).toMatchObject({ deviceIds: ['1', '2'], format: 'csv', timeZone: expect.any(String) });
    expect(Number(body.endTime) - Number(body.startTime)).toBe(7 * 86_400_000);
    await waitFor(() => expect(clicks).toEqual(['device-data-20250525-20250601.csv']));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('offers no selection or batch buttons to people who may only view monitors', async () => {
    serve({}, ['device:view']);
    const row = await openList();
    expect(within(row).queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('batch-transfer-open')).toBeNull();
    expect(screen.queryByTestId('batch-export-open')).toBeNull();
  });
});

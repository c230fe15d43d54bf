import type { DeviceView } from '@coldchain/contract';
import { buildMenuEntries } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { demoPowers, envelope, stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import { COUNTS, device } from '../test-fixtures';
import { fieldOfMessage } from './edit-form';

const LIST = '/deviceManagement/monitoringDevice';
const DETAIL = `${LIST}/monitoringDeviceDetail`;

const DEPARTMENTS = [
  { id: 'd1', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
  {
    id: 'd2',
    pid: 'd1',
    name: 'Pharmacy',
    level: 2,
    groups: [
      {
        id: 'g1',
        pid: '0',
        departmentId: 'd2',
        name: 'Vaccine fridges',
        state: 1,
        deviceCount: 1,
        children: [],
      },
    ],
  },
];

const pcc = device({
  editable: true,
  model: 'PCC-200',
  departmentId: 'd2',
  groupId: 'g1',
  hostAddress: '01',
  subAddress: '07',
  region: 'Selangor',
  address: 'Ward 2B',
  remark: 'Left of the door',
});

/** A fake server that keeps one device and applies edits to it, as the real call does. */
function serveDevice(initial: DeviceView, extra: Parameters<typeof stubServer>[0] = {}) {
  let current = initial;
  const server = stubServer({
    ...extra,
    overrides: {
      '/api/device/deviceDetail': () => current,
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
      '/api/group/departmentGroups': () => DEPARTMENTS,
      '/api/device/pageDevices': () => ({ list: [current], total: 1, pageNum: 1, pageSize: 20 }),
      '/api/device/countGroupByState': () => COUNTS,
      '/api/device/editDevice': (body) => {
        current = { ...current, ...(body as Partial<DeviceView>) };
        return current;
      },
      ...extra.overrides,
    },
  });
  return server;
}

function editBodies(server: ReturnType<typeof stubServer>) {
  return server.mock.calls
    .filter(([input]) => String(input) === '/api/device/editDevice')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

/** Powers with every tag but `device:edit`. */
function powersWithoutEdit() {
  const full = demoPowers();
  return () => ({
    ...full,
    menus: buildMenuEntries(new Set(full.authTags), new Set(full.authTags)),
    authTags: full.authTags.filter((t) => t !== 'device:edit'),
  });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('editing a monitor', () => {
  // The longest walk through the dialog: antd forms are slow in jsdom on a shared machine.
  it('opens pre-filled from the detail, refuses a verification interval above the upload interval, saves', {
    timeout: 60_000,
  }, async () => {
    const server = serveDevice(pcc);
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('edit-device-open'));

    const dialog = await screen.findByTestId('edit-device-form');
    expect(within(dialog).getByTestId('edit-device-name')).toHaveValue('Vaccine fridge 1');
    expect(within(dialog).getByTestId('edit-device-recordInterval')).toHaveValue('300');
    expect(within(dialog).getByTestId('edit-device-uploadInterval')).toHaveValue('60');
    expect(within(dialog).getByTestId('edit-device-uploadInterval')).toBeDisabled();
    expect(within(dialog).getByTestId('edit-device-alarmVerifyInterval')).toHaveValue('60');
    expect(within(dialog).getByTestId('edit-device-offlineJudgement')).toHaveValue('3');
    expect(within(dialog).getByTestId('edit-device-hostAddress')).toHaveValue('01');
    expect(within(dialog).getByTestId('edit-device-subAddress')).toHaveValue('07');
    expect(within(dialog).getByTestId('edit-device-remark')).toHaveValue('Left of the door');
    expect(within(dialog).getByTestId('edit-device-region')).toHaveValue('Selangor');
    expect(within(dialog).getByTestId('edit-device-address')).toHaveValue('Ward 2B');
    await waitFor(() => expect(within(dialog).getByText('Pharmacy')).toBeInTheDocument());
    expect(within(dialog).getByText('Vaccine fridges')).toBeInTheDocument();

    const verify = within(dialog).getByTestId('edit-device-alarmVerifyInterval');
    await userEvent.clear(verify);
    await userEvent.type(verify, '120');
    await userEvent.click(screen.getByTestId('edit-device-submit'));
    expect(
      await within(dialog).findByText(
        'The alarm verification interval must be at most the data upload interval',
      ),
    ).toBeInTheDocument();
    expect(editBodies(server)).toEqual([]);

    await userEvent.clear(verify);
    await userEvent.type(verify, '30');
    const name = within(dialog).getByTestId('edit-device-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Fridge 2B');
    await userEvent.click(screen.getByTestId('edit-device-submit'));

    await waitFor(() => expect(screen.getByTestId('device-name')).toHaveTextContent('Fridge 2B'));
    expect(editBodies(server)).toEqual([
      {
        id: '1',
        name: 'Fridge 2B',
        departmentId: 'd2',
        groupId: 'g1',
        recordInterval: 300,
        uploadInterval: 60,
        alarmVerifyInterval: 30,
        offlineJudgement: 3,
        hostAddress: '01',
        subAddress: '07',
        remark: 'Left of the door',
        region: 'Selangor',
        address: 'Ward 2B',
      },
    ]);
    expect(await screen.findByText('Monitor saved')).toBeInTheDocument();
  });

  it('puts a server refusal next to the field it names, and hides the PCC addresses on other models', {
    timeout: 60_000,
  }, async () => {
    serveDevice(device({ editable: true, departmentId: 'd2', groupId: 'g1', hostAddress: 'kept' }), {
      overrides: {
        '/api/device/editDevice': envelope(null, 500, "The group must belong to the device's department"),
      },
    });
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('edit-device-open'));
    const dialog = await screen.findByTestId('edit-device-form');
    expect(within(dialog).queryByTestId('edit-device-hostAddress')).toBeNull();
    expect(within(dialog).queryByTestId('edit-device-subAddress')).toBeNull();

    await userEvent.click(screen.getByTestId('edit-device-submit'));
    const groupItem = within(dialog).getByTestId('edit-device-group').closest('.ant-form-item');
    await waitFor(() =>
      expect(groupItem).toHaveTextContent("The group must belong to the device's department"),
    );
    // Still open for a correction.
    expect(screen.getByTestId('edit-device-form')).toBeInTheDocument();
  });

  it('offers Edit on list rows the user may edit, and opens the dialog there without leaving the list', {
    timeout: 60_000,
  }, async () => {
    serveDevice(pcc);
    renderApp(LIST);
    const open = await screen.findByTestId('edit-device-open-DEMO0001');
    await userEvent.click(open);
    expect(await screen.findByTestId('edit-device-form')).toBeInTheDocument();
    expect(currentLocation.path).toBe(LIST);
  });

  it('shows no Edit action without the edit tag, on the detail page or in the list', {
    timeout: 60_000,
  }, async () => {
    serveDevice(pcc, { overrides: { '/api/index/getUserPowers': powersWithoutEdit() } });
    const first = renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('device-name')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-device-open')).toBeNull();
    first.unmount();

    renderApp(LIST);
    expect(await screen.findByTestId('device-row-DEMO0001')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-device-open-DEMO0001')).toBeNull();
  });

  it('hides Edit on a device only granted for viewing, even with the edit tag', async () => {
    serveDevice(device({ editable: false }));
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('device-name')).toBeInTheDocument();
    expect(screen.getByTestId('reset-key-open')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-device-open')).toBeNull();
  });
});

describe('fieldOfMessage', () => {
  const labels = {
    name: 'Name',
    departmentId: 'Department',
    groupId: 'Group',
    recordInterval: 'Normal recording interval',
    uploadInterval: 'Data upload interval',
    alarmVerifyInterval: 'Alarm verification interval',
    offlineJudgement: 'Offline judgement count',
    hostAddress: 'Host address',
    subAddress: 'Sub-address',
    remark: 'Remarks',
    region: 'Region',
    address: 'Detailed address',
  };
  it('finds the field a server message names first, and none for a message about no field', () => {
    expect(
      fieldOfMessage('The alarm verification interval must be at most the data upload interval', labels),
    ).toBe('alarmVerifyInterval');
    expect(fieldOfMessage('Offline judgement count must be at least 1', labels)).toBe('offlineJudgement');
    expect(fieldOfMessage('Sub-address must be at most 40 characters', labels)).toBe('subAddress');
    expect(fieldOfMessage('The device does not exist', labels)).toBeNull();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { demoPowers, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { DEPARTMENTS, fridgeType, item, page } from './test-fixtures';

const LIST = '/deviceManagement/equipment';
const rows = [
  item(),
  item({ id: 'e2', serial: '100002', name: 'Freezer', useState: 2, attributeIssueCount: 1 }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(extra: Parameters<typeof stubServer>[0] = {}) {
  return stubServer({
    ...extra,
    overrides: {
      '/api/equipment/pageEquipment': () => page(rows),
      '/api/equipmentType/pageTypes': () => page([fridgeType]),
      '/api/group/departmentGroups': () => DEPARTMENTS,
      '/api/equipment/batchTransfer': (body) => ({ count: (body.ids as string[]).length }),
      ...extra.overrides,
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

describe('equipment list', () => {
  it(
    'shows the rows with their use state and flags values that no longer fit the type',
    async () => {
      serve();
      renderApp(LIST);
      const row = await screen.findByTestId('equipment-row-100002');
      expect(within(row).getByText('Freezer')).toBeInTheDocument();
      expect(within(row).getByTestId('equipment-use-state')).toHaveTextContent('Under service');
      expect(within(row).getByTestId('equipment-issues')).toHaveTextContent(
        '1 value no longer fits its type',
      );
      expect(screen.getByTestId('equipment-add-open')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'filters by use state from the address and by type',
    async () => {
      const server = serve();
      renderApp(`${LIST}?useState=4`);
      await screen.findByTestId('equipment-row-100001');
      expect(bodies(server, '/api/equipment/pageEquipment')[0]).toEqual({
        pageNum: 1,
        pageSize: 20,
        useState: 4,
      });
      fireEvent.mouseDown(within(screen.getByTestId('equipment-type-filter')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle('Vaccine fridge'));
      await waitFor(() =>
        expect(bodies(server, '/api/equipment/pageEquipment').at(-1)).toMatchObject({
          typeId: 't1',
          useState: 4,
        }),
      );
    },
    SLOW_MS,
  );

  it(
    'transfers the selected equipment to a department',
    async () => {
      const server = serve();
      renderApp(LIST);
      const row = await screen.findByTestId('equipment-row-100002');
      await userEvent.click(within(row).getByRole('checkbox'));
      expect(screen.getByTestId('equipment-selected')).toHaveTextContent('1 selected');
      await userEvent.click(screen.getByTestId('equipment-transfer-open'));
      fireEvent.mouseDown(
        within(await screen.findByTestId('equipment-transfer-department')).getByRole('combobox'),
      );
      await userEvent.click(await screen.findByTitle('Cold room'));
      await userEvent.click(screen.getByTestId('equipment-transfer-submit'));
      await waitFor(() =>
        expect(bodies(server, '/api/equipment/batchTransfer')[0]).toEqual({
          ids: ['e2'],
          toDepartmentId: 'd3',
        }),
      );
    },
    SLOW_MS,
  );

  it(
    'refuses a batch transfer with nothing selected',
    async () => {
      const server = serve();
      renderApp(LIST);
      await screen.findByTestId('equipment-row-100001');
      await userEvent.click(screen.getByTestId('equipment-transfer-open'));
      expect(await screen.findByText('Select at least one piece of equipment')).toBeInTheDocument();
      expect(bodies(server, '/api/equipment/batchTransfer')).toHaveLength(0);
    },
    SLOW_MS,
  );

  it(
    'hides add, transfer and selection without equipment:edit',
    async () => {
      const powers = demoPowers();
      serve({
        overrides: {
          '/api/index/getUserPowers': () => ({
            ...powers,
            authTags: powers.authTags.filter((tag) => tag !== 'equipment:edit'),
          }),
        },
      });
      renderApp(LIST);
      const row = await screen.findByTestId('equipment-row-100001');
      expect(within(row).queryByRole('checkbox')).toBeNull();
      expect(screen.queryByTestId('equipment-add-open')).toBeNull();
      expect(screen.queryByTestId('equipment-transfer-open')).toBeNull();
      expect(screen.getByTestId('equipment-export-open')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'adds equipment with the type code as the serial prefix and checks its archive values',
    async () => {
      const server = serve({
        overrides: {
          '/api/equipment/saveEquipment': () => ({ id: 'e9', serial: '100042' }),
          '/api/equipment/equipmentDetail': () => null,
        },
      });
      renderApp(LIST);
      await screen.findByTestId('equipment-row-100001');
      await userEvent.click(screen.getByTestId('equipment-add-open'));
      fireEvent.mouseDown(within(await screen.findByTestId('equipment-type-select')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle('Vaccine fridge (10)'));
      await userEvent.type(screen.getByTestId('equipment-serial-suffix'), '42');
      await userEvent.type(screen.getByTestId('equipment-name'), 'New fridge');
      await userEvent.type(screen.getByTestId('equipment-attribute-0'), 'abc');
      await userEvent.type(screen.getByTestId('equipment-attribute-1'), '12.5');
      await userEvent.click(screen.getByTestId('equipment-save'));
      expect(await screen.findByText('The custom serial is exactly 4 digits')).toBeInTheDocument();
      expect(screen.getByText('Brand is 4-10 characters')).toBeInTheDocument();
      expect(screen.getByText('Volume is a whole number')).toBeInTheDocument();
      expect(bodies(server, '/api/equipment/saveEquipment')).toHaveLength(0);

      await userEvent.type(screen.getByTestId('equipment-serial-suffix'), '42');
      await userEvent.type(screen.getByTestId('equipment-attribute-0'), 'd');
      await userEvent.clear(screen.getByTestId('equipment-attribute-1'));
      await userEvent.type(screen.getByTestId('equipment-attribute-1'), '280');
      await userEvent.click(screen.getByLabelText('Other'));
      await userEvent.type(await screen.findByTestId('equipment-attribute-3-other'), 'Mesh');
      await userEvent.click(screen.getByTestId('equipment-save'));
      await waitFor(() => expect(bodies(server, '/api/equipment/saveEquipment')).toHaveLength(1));
      expect(bodies(server, '/api/equipment/saveEquipment')[0]).toMatchObject({
        typeId: 't1',
        serialSuffix: '4242',
        name: 'New fridge',
        useState: 1,
        attributes: { a1: 'abcd', a2: 280, a4: 'Mesh' },
        sensorIds: [],
        excursion: null,
        // No group picked: sent as '' (unbound), so clearing the select unbinds an edited one too.
        groupId: '',
      });
    },
    SLOW_MS,
  );
});

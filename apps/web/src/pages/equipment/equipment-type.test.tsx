import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { fridgeType, page } from './test-fixtures';

const TYPES = '/deviceManagement/equipment/equipmentType';
/** A test's limit: the first visit compiles the lazy page, slow on a shared 2-core machine. */
const SLOW_MS = 60_000;

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('equipment types', () => {
  it(
    'keeps the code of a type in use, and says how many pieces no longer fit after a change',
    async () => {
      const server = stubServer({
        overrides: {
          '/api/equipmentType/pageTypes': () => page([fridgeType]),
          '/api/equipmentType/saveType': () => ({ id: 't1', affectedEquipment: 2 }),
        },
      });
      renderApp(TYPES);
      const row = await screen.findByTestId('type-row-10');
      expect(within(row).getByText('Brand · Text')).toBeInTheDocument();
      await userEvent.click(within(row).getByTestId('type-edit-10'));
      expect(await screen.findByTestId('type-code')).toBeDisabled();
      const minLength = screen.getByTestId('type-attribute-0-min-length');
      await userEvent.clear(minLength);
      await userEvent.type(minLength, '8');
      const maxLength = screen.getByTestId('type-attribute-0-max-length');
      await userEvent.clear(maxLength);
      await userEvent.type(maxLength, '6');
      await userEvent.click(screen.getByTestId('type-save'));
      expect(await screen.findByText('Brand: the minimum is above the maximum')).toBeInTheDocument();
      expect(bodies(server, '/api/equipmentType/saveType')).toHaveLength(0);
      await userEvent.clear(maxLength);
      await userEvent.type(maxLength, '10');
      await userEvent.click(screen.getByTestId('type-save'));
      await waitFor(() => expect(bodies(server, '/api/equipmentType/saveType')).toHaveLength(1));
      const sent = bodies(server, '/api/equipmentType/saveType')[0] as {
        attributes: unknown[];
        code: string;
      };
      expect(sent.code).toBe('10');
      expect(sent.attributes[0]).toEqual({
        id: 'a1',
        name: 'Brand',
        kind: 'text',
        required: true,
        minLength: 8,
        maxLength: 10,
      });
      expect(sent.attributes[3]).toEqual({
        id: 'a4',
        name: 'Doors',
        kind: 'choice',
        required: false,
        options: ['Glass', 'Solid'],
        multiple: false,
        allowOther: true,
      });
      expect(
        await screen.findByText(/2 pieces of equipment hold values that no longer fit/),
      ).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'refuses a code that is not digits and a choice without options',
    async () => {
      const server = stubServer({ overrides: { '/api/equipmentType/pageTypes': () => page([]) } });
      renderApp(TYPES);
      await userEvent.click(await screen.findByTestId('type-add-open'));
      await userEvent.type(await screen.findByTestId('type-name'), 'Freezer');
      await userEvent.type(screen.getByTestId('type-code'), '2A');
      await userEvent.click(screen.getByTestId('type-attribute-add'));
      await userEvent.type(await screen.findByTestId('type-attribute-0-name'), 'Doors');
      fireEvent.mouseDown(within(screen.getByTestId('type-attribute-0-kind')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle('Choice'));
      await userEvent.click(screen.getByTestId('type-save'));
      expect(await screen.findByText('The type code is 1-10 digits')).toBeInTheDocument();
      expect(await screen.findByText('Doors: add at least one option')).toBeInTheDocument();
      expect(bodies(server, '/api/equipmentType/saveType')).toHaveLength(0);
    },
    SLOW_MS,
  );
});

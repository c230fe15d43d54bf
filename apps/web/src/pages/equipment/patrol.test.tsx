import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { item, NOW, page, plan } from './test-fixtures';

const PATROLS = '/monitoring/operationReport/patrolInfo';
const plans = [
  plan(),
  plan({
    id: 'p2',
    name: 'Cold room round',
    currentRound: { startTime: NOW, endTime: NOW + 1, state: 'missed' },
  }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve() {
  return stubServer({
    overrides: {
      '/api/equipment/pagePatrolPlans': () => page(plans),
      '/api/equipment/pageEquipment': () => page([item()]),
      '/api/group/departmentGroups': () => [],
      '/api/equipment/addRecord': () => ({ id: 'r5' }),
      '/api/equipment/savePatrolPlan': () => ({ id: 'p9' }),
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

describe('patrol records', () => {
  it(
    'lists the plans with their current round, filtered by state',
    async () => {
      serve();
      renderApp(PATROLS);
      const due = await screen.findByTestId('plan-row-p1');
      expect(within(due).getByTestId('round-due')).toHaveTextContent('Due');
      expect(within(screen.getByTestId('plan-row-p2')).getByTestId('round-missed')).toHaveTextContent(
        'Missed',
      );
      await userEvent.click(within(screen.getByTestId('patrol-state-filter')).getByText('Missed'));
      await waitFor(() => expect(screen.queryByTestId('plan-row-p1')).toBeNull());
      expect(screen.getByTestId('plan-row-p2')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'records a patrol only with the signature password, even with audit signature off',
    async () => {
      const server = serve();
      renderApp(PATROLS);
      await screen.findByTestId('plan-row-p1');
      await userEvent.click(screen.getByTestId('patrol-record-open-p1'));
      await userEvent.type(await screen.findByTestId('patrol-reading'), '4.5');
      await userEvent.click(screen.getByTestId('patrol-save'));
      expect(await screen.findByText('Enter your signature password')).toBeInTheDocument();
      expect(bodies(server, '/api/equipment/addRecord')).toHaveLength(0);
      await userEvent.type(screen.getByTestId('patrol-sign-password'), 'sign1234');
      await userEvent.click(screen.getByTestId('patrol-save'));
      await waitFor(() => expect(bodies(server, '/api/equipment/addRecord')).toHaveLength(1));
      expect(bodies(server, '/api/equipment/addRecord')[0]).toMatchObject({
        equipmentId: 'e1',
        kind: 'patrol',
        planId: 'p1',
        person: 'Demo Admin',
        reading: 4.5,
        condition: 'normal',
        signPassword: 'sign1234',
      });
    },
    SLOW_MS,
  );

  it(
    'refuses a patrol interval of 6 hours or less',
    async () => {
      const server = serve();
      renderApp(PATROLS);
      await screen.findByTestId('plan-row-p1');
      await userEvent.click(screen.getByTestId('plan-add-open'));
      await userEvent.type(await screen.findByTestId('plan-name'), 'Night round');
      const interval = screen.getByTestId('plan-interval');
      await userEvent.clear(interval);
      await userEvent.type(interval, '6');
      await userEvent.click(screen.getByTestId('plan-save'));
      expect(
        await screen.findByText('The patrol interval must be more than 6 hours and at most 8760'),
      ).toBeInTheDocument();
      expect(bodies(server, '/api/equipment/savePatrolPlan')).toHaveLength(0);
    },
    SLOW_MS,
  );
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { DEPARTMENTS, equipment, fridgeType, NOW, page, record } from './test-fixtures';
import type { Equipment } from './types';

const DETAIL = '/deviceManagement/equipment/equipmentDetail?id=e1';

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(detail: Equipment = equipment(), authTags?: string[]) {
  return stubServer({
    authTags,
    overrides: {
      '/api/equipment/equipmentDetail': () => detail,
      '/api/equipmentType/pageTypes': () => page([fridgeType]),
      '/api/group/departmentGroups': () => DEPARTMENTS,
      '/api/equipment/pageRecords': () =>
        page([
          record({
            id: 'r2',
            kind: 'calibration',
            institution: 'NMI',
            nextDueAt: NOW,
            certificateUrl: '/files/c.pdf',
          }),
          record({
            id: 'r1',
            kind: 'repair',
            unit: 'CoolFix',
            person: 'Lee',
            cause: 'Door seal',
            repaired: false,
          }),
        ]),
      '/api/equipment/equipmentStats': (body) => ({
        startTime: NOW - 86_400_000,
        endTime: NOW,
        sensors: [
          {
            sensorId: 's1',
            name: 'Temperature',
            unit: '°C',
            count: 288,
            min: 2.1,
            max: 9.4,
            mean: 4.6,
            mkt: 5.1,
          },
        ],
        minutesOutOfRange: body.period === 'day' ? 45 : 90,
        budget: { max: 8, budgetMinutes: 60, usedMinutes: 45, ratio: 0.75 },
      }),
      '/api/equipment/addRecord': () => ({ id: 'r9' }),
      '/api/report/equipmentReport': new Response('%PDF-1.7\n', {
        status: 200,
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="equipment-report-100001-20260301-20260302.pdf"',
        },
      }),
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

describe('equipment detail', () => {
  it(
    'makes the equipment report of the chosen period, signed when a meaning is chosen',
    async () => {
      const saved: string[] = [];
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() });
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved.push(this.download);
      });
      const server = serve(equipment(), ['data:view', 'device:export']);
      renderApp(DETAIL);
      await userEvent.click(await screen.findByTestId('equipment-report-open'));
      await userEvent.click(screen.getByTestId('equipment-report-preset-7d'));
      await userEvent.click(screen.getByLabelText('Reviewed'));
      await userEvent.type(await screen.findByTestId('equipment-report-sign-password'), 'abc123');
      await userEvent.click(screen.getByTestId('equipment-report-submit'));
      await waitFor(() => expect(saved).toEqual(['equipment-report-100001-20260301-20260302.pdf']));
      const [body] = bodies(server, '/api/report/equipmentReport');
      expect(body).toMatchObject({ equipmentId: 'e1', signMeaning: 'reviewed', signPassword: 'abc123' });
      expect(Number(body!.endTime) - Number(body!.startTime)).toBe(7 * 86_400_000);
      click.mockRestore();
    },
    SLOW_MS,
  );

  it(
    'shows the archive, sensors, timeline, statistics and a QR label that opens this page',
    async () => {
      const server = serve();
      renderApp(DETAIL);
      expect(await screen.findByTestId('equipment-serial')).toHaveTextContent('100001');
      const archive = screen.getByTestId('equipment-archive');
      expect(within(archive).getByText('Haier')).toBeInTheDocument();
      expect(within(archive).getByText('280 L')).toBeInTheDocument();
      expect(within(archive).getByText('Glass')).toBeInTheDocument();
      expect(within(screen.getByTestId('equipment-sensors-table')).getByText('4.2 °C')).toBeInTheDocument();

      const calibration = await screen.findByTestId('timeline-item-calibration');
      expect(within(calibration).getByText('NMI')).toBeInTheDocument();
      expect(within(calibration).getByTestId('timeline-certificate')).toHaveAttribute('href', '/files/c.pdf');
      expect(within(screen.getByTestId('timeline-item-repair')).getByText('Door seal')).toBeInTheDocument();

      expect(await screen.findByTestId('stats-mkt-s1')).toHaveTextContent('5.1 °C');
      expect(screen.getByTestId('stats-budget')).toHaveTextContent('75%');
      expect(screen.getByTestId('stats-budget')).toHaveTextContent('45 of 60 min budget used');
      expect(bodies(server, '/api/equipment/equipmentStats')[0]).toEqual({ id: 'e1', period: 'day' });
      await userEvent.click(within(screen.getByTestId('stats-period')).getByText('Week'));
      await waitFor(() =>
        expect(bodies(server, '/api/equipment/equipmentStats').at(-1)).toEqual({ id: 'e1', period: 'week' }),
      );

      const qr = within(screen.getByTestId('equipment-label')).getByTestId('label-qr');
      expect(qr.querySelector('svg')).not.toBeNull();
    },
    SLOW_MS,
  );

  it(
    'asks once more before a scrap, and sends it only when confirmed',
    async () => {
      const server = serve();
      renderApp(DETAIL);
      await screen.findByTestId('equipment-serial');
      await userEvent.click(screen.getByTestId('record-add-open'));
      await userEvent.click(await screen.findByTestId('record-add-scrap'));
      expect(await screen.findByText(/This cannot be undone/)).toBeInTheDocument();
      // The time defaults to now; the dialog's OK asks once more before anything is sent.
      await userEvent.click(screen.getByTestId('record-save'));
      const confirm = await screen.findByTestId('scrap-confirm-ok');
      expect(screen.getAllByText('Scrap this equipment?').length).toBeGreaterThan(0);
      expect(bodies(server, '/api/equipment/addRecord')).toHaveLength(0);
      await userEvent.click(confirm);
      await waitFor(() => expect(bodies(server, '/api/equipment/addRecord')).toHaveLength(1));
      expect(bodies(server, '/api/equipment/addRecord')[0]).toMatchObject({
        equipmentId: 'e1',
        kind: 'scrap',
        scrapType: 'scrap',
      });
      expect(typeof bodies(server, '/api/equipment/addRecord')[0]?.time).toBe('number');
    },
    SLOW_MS,
  );

  it(
    'offers no new record and no edit once disposed, and says when alarms are held back',
    async () => {
      serve(equipment({ useState: 3, alarmSuppressed: true }));
      renderApp(DETAIL);
      await screen.findByTestId('equipment-serial');
      expect(screen.getByTestId('equipment-use-state')).toHaveTextContent('Disposed');
      expect(screen.getByTestId('equipment-suppressed')).toBeInTheDocument();
      expect(screen.queryByTestId('record-add-open')).toBeNull();
      expect(screen.queryByTestId('equipment-edit-open')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'adds a repair that is not yet repaired without a repair time',
    async () => {
      const server = serve();
      renderApp(DETAIL);
      await screen.findByTestId('equipment-serial');
      await userEvent.click(screen.getByTestId('record-add-open'));
      await userEvent.click(await screen.findByTestId('record-add-repair'));
      await userEvent.type(await screen.findByTestId('record-unit'), 'CoolFix');
      await userEvent.type(screen.getByTestId('record-person'), 'Lee');
      await userEvent.type(screen.getByTestId('record-cause'), 'Compressor');
      await userEvent.click(screen.getByTestId('record-faultTime'));
      await userEvent.click(await screen.findByText('Now'));
      await userEvent.click(screen.getByTestId('record-save'));
      await waitFor(() => expect(bodies(server, '/api/equipment/addRecord')).toHaveLength(1));
      const sent = bodies(server, '/api/equipment/addRecord')[0];
      expect(sent).toMatchObject({
        kind: 'repair',
        unit: 'CoolFix',
        person: 'Lee',
        cause: 'Compressor',
        repaired: false,
      });
      expect(sent).not.toHaveProperty('repairTime');
    },
    SLOW_MS,
  );
});

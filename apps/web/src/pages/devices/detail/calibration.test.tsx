import type { CalibrationView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { device } from '../test-fixtures';
import { CALIBRATION_PATHS } from './calibration-paths';

const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail';

const record = (over: Partial<CalibrationView> = {}): CalibrationView => ({
  id: 'k1',
  deviceId: '1',
  calibratedAt: new Date(2026, 0, 10).getTime(),
  nextDueAt: new Date(2027, 0, 10).getTime(),
  institution: 'Metrology Institute',
  certificateUrl: '/files/0123456789abcdef0123456789abcdef.pdf',
  createdBy: 'u1',
  createTime: Date.now(),
  ...over,
});

function serve(records: CalibrationView[]) {
  return stubServer({
    overrides: {
      '/api/device/deviceDetail': () => device(),
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
      [CALIBRATION_PATHS.page]: () => ({ list: records, total: records.length, pageNum: 1, pageSize: 10 }),
      [CALIBRATION_PATHS.upload]: () => ({
        url: '/files/fedcba9876543210fedcba9876543210.pdf',
        size: 9,
        type: 'pdf',
      }),
      [CALIBRATION_PATHS.add]: (body) => record({ id: 'k2', ...body }),
      [CALIBRATION_PATHS.remove]: () => null,
    },
  });
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) =>
      init?.body instanceof FormData
        ? Object.fromEntries(init.body.entries())
        : (JSON.parse(String(init?.body)) as Record<string, unknown>),
    );
}

function pickerInput(testId: string): HTMLInputElement {
  const el = screen.getByTestId(testId);
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
}

const fileInput = () => document.querySelector<HTMLInputElement>('.ant-modal input[type=file]')!;

async function openPanel() {
  return within(await screen.findByTestId('calibration-panel', {}, { timeout: 30_000 }));
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('calibration records on the monitor detail', () => {
  // The first render loads the lazy page, which takes long on a busy machine.
  it('lists the records with their dates, institution and certificate link', {
    timeout: 60_000,
  }, async () => {
    const server = serve([record()]);
    renderApp(`${DETAIL}?id=1`);
    const panel = await openPanel();
    expect(await panel.findByText('Metrology Institute')).toBeInTheDocument();
    expect(panel.getByText('2026-01-10')).toBeInTheDocument();
    expect(panel.getByText('2027-01-10')).toBeInTheDocument();
    expect(panel.getByTestId('calibration-certificate')).toHaveAttribute(
      'href',
      '/files/0123456789abcdef0123456789abcdef.pdf',
    );
    expect(bodies(server, CALIBRATION_PATHS.page)[0]).toMatchObject({ deviceId: '1', pageNum: 1 });
  });

  it('adds a record with dates and a PDF certificate', { timeout: 60_000 }, async () => {
    const user = userEvent.setup({ applyAccept: false });
    const server = serve([]);
    renderApp(`${DETAIL}?id=1`);
    const panel = await openPanel();
    expect(await panel.findByText('No calibration records')).toBeInTheDocument();
    await user.click(panel.getByTestId('calibration-add-open'));
    await screen.findByText('Add calibration record');

    // Nothing filled in: every field says what it needs, nothing is sent.
    await user.click(screen.getByTestId('calibration-save'));
    expect(await screen.findByText('Select the calibration time')).toBeInTheDocument();
    expect(screen.getByText('Enter the calibration institution')).toBeInTheDocument();

    await user.click(pickerInput('calibration-calibrated-at'));
    await user.type(pickerInput('calibration-calibrated-at'), '2026-03-01{Enter}');
    await user.click(pickerInput('calibration-next-due-at'));
    await user.type(pickerInput('calibration-next-due-at'), '2026-02-01{Enter}');
    await user.type(screen.getByTestId('calibration-institution'), 'Metrology Institute');
    await user.click(screen.getByTestId('calibration-save'));
    // The form validates on change and again on save, and may redraw the message in between:
    // wait for it to stand rather than holding the first element found.
    await waitFor(() =>
      expect(
        screen.getByText('The next calibration time must be after the calibration time'),
      ).toBeInTheDocument(),
    );

    // A picture is refused before any upload; a PDF goes up with the calibration purpose.
    await user.upload(fileInput(), new File(['png'], 'scan.png', { type: 'image/png' }));
    expect(await screen.findByText('The certificate must be a PDF file')).toBeInTheDocument();
    const big = new File([new Uint8Array(5 * 1_048_576)], 'big.pdf', { type: 'application/pdf' });
    await user.upload(fileInput(), big);
    expect(await screen.findByText('The certificate must be under 5 MB')).toBeInTheDocument();
    expect(bodies(server, CALIBRATION_PATHS.upload)).toHaveLength(0);
    await user.upload(fileInput(), new File(['%PDF-1.7'], 'cert.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(bodies(server, CALIBRATION_PATHS.upload)).toHaveLength(1));
    expect(bodies(server, CALIBRATION_PATHS.upload)[0]).toMatchObject({ purpose: 'calibration' });

    await user.clear(pickerInput('calibration-next-due-at'));
    await user.type(pickerInput('calibration-next-due-at'), '2027-03-01{Enter}');
    await user.click(screen.getByTestId('calibration-save'));
    await waitFor(() => expect(bodies(server, CALIBRATION_PATHS.add)).toHaveLength(1));
    expect(bodies(server, CALIBRATION_PATHS.add)[0]).toEqual({
      deviceId: '1',
      calibratedAt: new Date(2026, 2, 1).getTime(),
      nextDueAt: new Date(2027, 2, 1).getTime(),
      institution: 'Metrology Institute',
      certificateUrl: '/files/fedcba9876543210fedcba9876543210.pdf',
    });
    expect(await screen.findByText('Calibration record added')).toBeInTheDocument();
    // The list is asked again for the new record.
    await waitFor(() => expect(bodies(server, CALIBRATION_PATHS.page).length).toBeGreaterThan(1));
  });

  it('deletes a record only after confirmation', { timeout: 60_000 }, async () => {
    const server = serve([record()]);
    renderApp(`${DETAIL}?id=1`);
    const panel = await openPanel();
    await userEvent.click(await panel.findByTestId('calibration-delete-k1'));
    const popup = await screen.findByRole('tooltip');
    expect(within(popup).getByText('Delete this calibration record?')).toBeInTheDocument();
    expect(bodies(server, CALIBRATION_PATHS.remove)).toHaveLength(0);
    await userEvent.click(within(popup).getByRole('button', { name: /confirm/i }));
    await waitFor(() => expect(bodies(server, CALIBRATION_PATHS.remove)).toEqual([{ id: 'k1' }]));
  });

  it('speaks Simplified Chinese', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('zh-CN');
    serve([record()]);
    renderApp(`${DETAIL}?id=1`);
    const panel = await openPanel();
    expect(await panel.findByText('校准记录')).toBeInTheDocument();
    expect(panel.getByRole('columnheader', { name: '下次校准时间' })).toBeInTheDocument();
    expect(panel.getByText('查看 PDF')).toBeInTheDocument();
  });
});

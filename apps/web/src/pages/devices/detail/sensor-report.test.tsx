import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { envelope, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { device } from '../test-fixtures';

const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail';

function reportBodies(server: ReturnType<typeof stubServer>) {
  return server.mock.calls
    .filter(([input]) => String(input) === '/api/report/sensorReport')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function pdf() {
  return new Response('%PDF-1.7\n', {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': 'attachment; filename="sensor-report-DEMO0001-1.pdf"',
    },
  });
}

function serve(options: { signCheck?: boolean; tags?: string[]; report?: Response } = {}) {
  return stubServer({
    user: { signCheck: options.signCheck ?? false },
    authTags: options.tags ?? ['data:view', 'device:export'],
    overrides: {
      '/api/device/deviceDetail': () => device(),
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
      '/api/report/sensorReport': options.report ?? pdf(),
    },
  });
}

let saved: string[] = [];
beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
  saved = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('sensor PDF report', () => {
  it('asks for an unsigned report of the last 24 hours and saves the PDF the server names', async () => {
    const server = serve();
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('sensor-report-open'));
    expect(screen.queryByTestId('sensor-report-sign-password')).toBeNull();
    await userEvent.click(screen.getByTestId('sensor-report-submit'));
    await waitFor(() => expect(reportBodies(server)).toHaveLength(1));
    const body = reportBodies(server)[0]!;
    expect(body).toMatchObject({ sensorId: 's1', timeZone: expect.any(String) });
    expect(body).not.toHaveProperty('signMeaning');
    expect(body).not.toHaveProperty('signPassword');
    expect(body).not.toHaveProperty('interval');
    expect(Number(body.endTime) - Number(body.startTime)).toBe(86_400_000);
    await waitFor(() => expect(saved).toEqual(['sensor-report-DEMO0001-1.pdf']));
  });

  it('a signed report needs the signature password even while audit signature is off', async () => {
    const server = serve({ report: envelope(null, 500, 'The signature password is incorrect') });
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('sensor-report-open'));
    await userEvent.click(screen.getByLabelText('Approved'));
    await userEvent.click(await screen.findByTestId('sensor-report-submit'));
    expect(await screen.findByText('Enter your signature password')).toBeInTheDocument();
    expect(reportBodies(server)).toEqual([]);

    await userEvent.type(screen.getByTestId('sensor-report-sign-password'), 'wrong1');
    await userEvent.click(screen.getByTestId('sensor-report-submit'));
    await waitFor(() =>
      expect(reportBodies(server)).toEqual([
        expect.objectContaining({ signMeaning: 'approved', signPassword: 'wrong1' }),
      ]),
    );
    expect(await screen.findByText('The signature password is incorrect')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('is not offered without the export permission', async () => {
    serve({ tags: ['data:view'] });
    renderApp(`${DETAIL}?id=1`);
    await screen.findByTestId('history-sensor');
    expect(screen.queryByTestId('sensor-report-open')).toBeNull();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { alarmRecord } from './test-fixtures';

const LIST = '/alarm/alarmInfo';
const DETAIL = '/alarm/alarmInfo/alarmDetail';

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function csvFile() {
  return new Response('\uFEFFAlarm time,Device\r\n', {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="alarms-20250525-20250601.csv"',
    },
  });
}

function serve(signCheck: boolean, extra: Record<string, unknown> = {}) {
  return stubServer({
    user: { id: '7', signCheck },
    authTags: ['data:view', 'alarm:view', 'alarm:resolve'],
    overrides: {
      '/api/alarm/pageAlarms': () => ({ list: [alarmRecord()], total: 1, pageNum: 1, pageSize: 20 }),
      '/api/alarm/alarmDetail': () => alarmRecord(),
      '/api/alarm/alarmNotifications': () => [],
      '/api/alarm/exportAlarms': csvFile(),
      ...(extra as Record<string, never>),
    },
  });
}

async function choose(testId: string, option: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const matches = await screen.findAllByTitle(option);
  await userEvent.click(matches.at(-1)!);
}

let clicks: string[] = [];
beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
  clicks = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push(this.download);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('alarm record export', () => {
  it('opens on the last 24 hours, needs a format, sends the list filters and saves the server-named file', async () => {
    const server = serve(false);
    renderApp(LIST);
    await screen.findByTestId('alarm-row-101');
    await choose('alarm-filter-state', 'Pending');
    await userEvent.click(screen.getByTestId('alarm-export-open'));
    await userEvent.click(await screen.findByTestId('alarm-export-submit'));
    // The period starts as the last 24 hours (issue 20): only the format is missing.
    expect(await screen.findByText('Select a file format: xlsx, csv or pdf')).toBeInTheDocument();
    expect(screen.queryByText('Select at least one device, time period or record')).toBeNull();
    expect(screen.queryByTestId('alarm-export-sign-password')).toBeNull();
    expect(bodies(server, '/api/alarm/exportAlarms')).toEqual([]);

    await userEvent.click(screen.getByTestId('alarm-export-preset-7d'));
    await userEvent.click(screen.getByLabelText('CSV (.csv)'));
    await userEvent.click(screen.getByTestId('alarm-export-submit'));
    await waitFor(() => expect(bodies(server, '/api/alarm/exportAlarms')).toHaveLength(1));
    const body = bodies(server, '/api/alarm/exportAlarms')[0]!;
    expect(body).toMatchObject({ format: 'csv', resolveState: 1, timeZone: expect.any(String) });
    expect(body).not.toHaveProperty('signPassword');
    expect(Number(body.endTime) - Number(body.startTime)).toBe(7 * 86_400_000);
    await waitFor(() => expect(clicks).toEqual(['alarms-20250525-20250601.csv']));
  });

  it('offers PDF, the third format of the one export writer, and saves the PDF the server names', async () => {
    const server = serve(false, {
      '/api/alarm/exportAlarms': new Response('%PDF-1.7\n', {
        status: 200,
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="alarms-20250525-20250601.pdf"',
        },
      }),
    });
    renderApp(LIST);
    await screen.findByTestId('alarm-row-101');
    await userEvent.click(screen.getByTestId('alarm-export-open'));
    await userEvent.click(await screen.findByLabelText('PDF (.pdf)'));
    await userEvent.click(screen.getByTestId('alarm-export-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/exportAlarms')).toEqual([expect.objectContaining({ format: 'pdf' })]),
    );
    await waitFor(() => expect(clicks).toEqual(['alarms-20250525-20250601.pdf']));
  });

  it('shows how far a long export has got while the file is made, then saves it', async () => {
    const asked: unknown[] = [];
    const server = serve(false, {
      '/api/export/progress': (body: Record<string, unknown>) => {
        asked.push(body.progressId);
        return { phase: 'writing', done: 1200, total: 4800 };
      },
    });
    // The export answers only when the test says so: the dialog waits meanwhile.
    let release: () => void = () => undefined;
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/alarm/exportAlarms') return answer(input, init);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return csvFile();
    });
    renderApp(LIST);
    await screen.findByTestId('alarm-row-101');
    await userEvent.click(screen.getByTestId('alarm-export-open'));
    await userEvent.click(await screen.findByLabelText('CSV (.csv)'));
    await userEvent.click(screen.getByTestId('alarm-export-submit'));

    const progress = await screen.findByTestId('alarm-export-progress');
    expect(progress).toHaveTextContent('Writing the file: 1,200 of 4,800 rows');
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    // The dialog asks about its own export: the id it sent with the request.
    const sent = bodies(server, '/api/alarm/exportAlarms')[0]!;
    expect(sent.progressId).toMatch(/^[0-9a-f]{32}$/);
    expect(asked[0]).toBe(sent.progressId);

    release();
    await waitFor(() => expect(clicks).toEqual(['alarms-20250525-20250601.csv']));
  });

  it('asks for the signature password when sign check is on, and shows the server’s refusal', async () => {
    const server = serve(true, {
      '/api/alarm/exportAlarms': envelope(null, 500, 'The signature password is incorrect'),
    });
    renderApp(LIST);
    await screen.findByTestId('alarm-row-101');
    await userEvent.click(screen.getByTestId('alarm-export-open'));
    await userEvent.click(await screen.findByTestId('alarm-export-preset-24h'));
    await userEvent.click(screen.getByLabelText('Excel (.xlsx)'));
    await userEvent.click(screen.getByTestId('alarm-export-submit'));
    expect(await screen.findByText('Enter your signature password')).toBeInTheDocument();
    expect(bodies(server, '/api/alarm/exportAlarms')).toEqual([]);

    await userEvent.type(screen.getByTestId('alarm-export-sign-password'), 'wrong1');
    await userEvent.click(screen.getByTestId('alarm-export-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/exportAlarms')).toEqual([
        expect.objectContaining({ format: 'xlsx', signPassword: 'wrong1' }),
      ]),
    );
    expect(await screen.findByText('The signature password is incorrect')).toBeInTheDocument();
    expect(clicks).toEqual([]);
  });
});

describe('resolving with the signature password', () => {
  it('asks for it when sign check is on and sends it', async () => {
    const server = serve(true, {
      '/api/alarm/resolveAlarm': () => alarmRecord({ resolveState: 3, resolverId: '7', resolveTime: 1 }),
    });
    renderApp(`${DETAIL}?id=101`);
    await userEvent.click(await screen.findByTestId('alarm-resolve-open'));
    await userEvent.type(screen.getByTestId('alarm-resolve-cause'), 'Door left open');
    await userEvent.click(screen.getByTestId('alarm-resolve-submit'));
    expect(await screen.findByText('Enter your signature password')).toBeInTheDocument();
    expect(bodies(server, '/api/alarm/resolveAlarm')).toEqual([]);

    await userEvent.type(screen.getByTestId('alarm-resolve-sign-password'), 'abc123');
    await userEvent.click(screen.getByTestId('alarm-resolve-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/resolveAlarm')).toEqual([
        { id: '101', resolveType: 'handled', cause: 'Door left open', action: '', signPassword: 'abc123' },
      ]),
    );
  });

  it('does not show the field when sign check is off', async () => {
    serve(false);
    renderApp(`${DETAIL}?id=101`);
    await userEvent.click(await screen.findByTestId('alarm-resolve-open'));
    await screen.findByTestId('alarm-resolve-cause');
    expect(screen.queryByTestId('alarm-resolve-sign-password')).toBeNull();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { calledPaths, demoPowers, envelope, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';

const COUNTS = { '1': 7, '2': 2, '3': 1, '4': 3, '5': 4, '6': 5 };

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('home device overview', () => {
  it('shows the count of every state, and each links to the list filtered by it', async () => {
    stubServer({
      overrides: {
        '/api/device/countGroupByState': () => COUNTS,
        '/api/device/pageDevices': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
      },
    });
    renderApp('/home');
    const labels = ['Normal', 'Alarm', 'Abnormal', 'Offline', 'Maintenance', 'Disposed'];
    for (const [i, label] of labels.entries()) {
      const link = await screen.findByTestId(`home-devices-state-${i + 1}`);
      expect(link).toHaveTextContent(`${label}${COUNTS[String(i + 1) as keyof typeof COUNTS]}`);
    }
    expect(screen.getByTestId('home-devices-all')).toHaveTextContent('22 in total');
    expect(screen.getByText('Welcome, Demo Admin')).toBeInTheDocument();
    expect(screen.queryByText(/^Device, alarm/)).toBeNull();

    await userEvent.click(screen.getByTestId('home-devices-state-4'));
    await waitFor(() => expect(currentLocation.path).toBe('/deviceManagement/monitoringDevice?state=4'));
    expect(await screen.findByTestId('state-tab-4', {}, { timeout: 8_000 })).toBeInTheDocument();
  });

  it('is left out for a member without device:view, who is not sent to a call it may not make', async () => {
    const server = stubServer();
    const answer = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/index/getUserPowers') return answer(input, init);
      return envelope({ ...demoPowers(), authTags: ['home:view'] });
    });
    renderApp('/home');
    expect(await screen.findByText('Welcome, Demo Admin')).toBeInTheDocument();
    // Let the powers arrive and settle, so the absence below is the decision and not a race.
    await waitFor(() => expect(calledPaths(server)).toContain('/api/index/getUserPowers'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('home-devices')).toBeNull();
    expect(calledPaths(server)).not.toContain('/api/device/countGroupByState');
  });
});

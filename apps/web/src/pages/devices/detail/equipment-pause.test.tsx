import type { SensorEquipmentView } from '@coldchain/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { formatTime } from '../format';
import { device, sensor } from '../test-fixtures';

const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail?id=1';
const UNTIL = Date.UTC(2025, 5, 1, 18, 0, 0);

function fridge(overrides: Partial<SensorEquipmentView> = {}): SensorEquipmentView {
  return {
    id: '77',
    name: 'Vaccine fridge',
    serial: '300001',
    useState: 1,
    alarmsPaused: null,
    pausedUntil: null,
    ...overrides,
  };
}

async function showSensors(equipment: SensorEquipmentView | null, language: 'en' | 'zh-CN' = 'en') {
  stubServer({
    overrides: {
      '/api/device/deviceDetail': () =>
        device({ sensors: [sensor({ equipment }), sensor({ id: 's2', channel: 2 })] }),
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
    },
  });
  await i18n.changeLanguage(language);
  renderApp(DETAIL);
  return screen.findByTestId('sensor-card-1');
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('monitor detail: equipment that pauses a sensor’s alarms', () => {
  it('names the measured equipment, linking to its detail, and says nothing of a pause while in use', async () => {
    const card = await showSensors(fridge());
    const link = within(card).getByRole('link', { name: 'Vaccine fridge (300001)' });
    expect(link).toHaveAttribute('href', '/deviceManagement/equipment/equipmentDetail?id=77');
    expect(within(card).queryByTestId('sensor-alarms-paused')).toBeNull();
    expect(within(screen.getByTestId('sensor-card-2')).queryByTestId('sensor-equipment')).toBeNull();
  });

  it('says alarms are paused while the equipment is under service, in English and Chinese', async () => {
    let card = await showSensors(fridge({ useState: 2, alarmsPaused: 'underService' }));
    const note = within(card).getByTestId('sensor-alarms-paused');
    expect(note).toHaveTextContent('Alarms paused: Vaccine fridge (300001) is under service');
    expect(note).toHaveTextContent(
      'The sensor still records readings, but raises no alarm while the pause lasts.',
    );

    vi.unstubAllGlobals();
    resetBrowserState();
    localStorage.setItem('accessToken', 't');
    card = await showSensors(fridge({ useState: 2, alarmsPaused: 'underService' }), 'zh-CN');
    expect(within(card).getByTestId('sensor-alarms-paused')).toHaveTextContent(
      '报警已暂停：Vaccine fridge (300001) 维修中',
    );
  });

  it('gives the end of the maintenance window that pauses them', async () => {
    const card = await showSensors(fridge({ useState: 4, alarmsPaused: 'maintenance', pausedUntil: UNTIL }));
    expect(within(card).getByTestId('sensor-alarms-paused')).toHaveTextContent(
      `Alarms paused: Vaccine fridge (300001) is in maintenance until ${formatTime(UNTIL)}`,
    );
  });
});

import type { AlarmDetailView, SensorEquipmentView } from '@coldchain/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { alarmRecord } from '../test-fixtures';

const DETAIL = '/alarm/alarmInfo/alarmDetail?id=101';

const UNDER_SERVICE: SensorEquipmentView = {
  id: '77',
  name: 'Vaccine fridge',
  serial: '300001',
  useState: 2,
  alarmsPaused: 'underService',
  pausedUntil: null,
};

async function showDetail(detail: AlarmDetailView, language: 'en' | 'zh-CN' = 'en') {
  stubServer({
    user: { id: '7' },
    overrides: {
      '/api/alarm/alarmDetail': () => detail,
      '/api/alarm/alarmNotifications': () => [],
    },
  });
  await i18n.changeLanguage(language);
  renderApp(DETAIL);
  await screen.findByTestId('alarm-detail-content');
}

const VALUE_CLEARING = {
  kind: 'value',
  low: 2.5,
  high: 7.5,
  hysteresis: 0,
  unit: '°C',
  latestValue: 9.1,
  latestTs: Date.UTC(2025, 5, 1),
} as const;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('alarm detail: the sensor’s equipment pauses its alarms', () => {
  it('tells that an open alarm will not end by itself and drops the clearing condition', async () => {
    await showDetail({ ...alarmRecord(), endTime: null, clearing: VALUE_CLEARING, equipment: UNDER_SERVICE });
    const note = screen.getByTestId('alarm-equipment-paused');
    expect(note).toHaveTextContent('Alarms paused: Vaccine fridge (300001) is under service');
    expect(note).toHaveTextContent('so this alarm will not end by itself');
    expect(screen.queryByTestId('alarm-clearing')).toBeNull();
  });

  it('says in Chinese that new alarms are not raised once the alarm has ended', async () => {
    await showDetail(
      { ...alarmRecord(), endTime: Date.UTC(2025, 5, 2), clearing: null, equipment: UNDER_SERVICE },
      'zh-CN',
    );
    const note = screen.getByTestId('alarm-equipment-paused');
    expect(note).toHaveTextContent('报警已暂停：Vaccine fridge (300001) 维修中');
    expect(note).toHaveTextContent('暂停期间该传感器不产生新的报警。');
  });

  it('says nothing while the equipment is in use, and keeps the clearing condition', async () => {
    await showDetail({
      ...alarmRecord(),
      endTime: null,
      clearing: VALUE_CLEARING,
      equipment: { ...UNDER_SERVICE, useState: 1, alarmsPaused: null },
    });
    expect(screen.queryByTestId('alarm-equipment-paused')).toBeNull();
    expect(screen.getByTestId('alarm-clearing')).toBeInTheDocument();
  });
});

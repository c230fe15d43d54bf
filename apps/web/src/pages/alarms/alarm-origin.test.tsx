import type { AlarmDetailView } from '@coldchain/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { alarmRecord } from './test-fixtures';

const DETAIL = '/alarm/alarmInfo/alarmDetail?id=101';

async function showDetail(detail: AlarmDetailView, language: 'en' | 'zh-CN') {
  vi.unstubAllGlobals();
  stubServer({
    user: { id: '7' },
    overrides: {
      '/api/alarm/alarmDetail': () => detail,
      '/api/alarm/alarmNotifications': () => [],
    },
  });
  await i18n.changeLanguage(language);
  renderApp(DETAIL);
  // The first render loads the lazy page under a shared, busy machine: allow it time.
  await screen.findByTestId('alarm-detail-content', {}, { timeout: 20_000 });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => vi.unstubAllGlobals());

/** Issue 22 items 3, 5 and 7 on the alarm detail. */
describe('alarm detail: late data, rule changes, peak and latest', { timeout: 30_000 }, () => {
  const late = { ...alarmRecord(), clearing: null, lateBySeconds: 3900 };

  it('marks an alarm found in data received late, with the delay', async () => {
    await showDetail(late, 'en');
    expect(screen.getByTestId('alarm-late')).toHaveTextContent('Found in data received late');
    expect(screen.getByTestId('alarm-late')).toHaveTextContent('arrived 1 h 5 min after it was taken');
  });

  it('marks it in Chinese too', async () => {
    await showDetail(late, 'zh-CN');
    expect(screen.getByTestId('alarm-late')).toHaveTextContent('在延迟接收的数据中发现');
    expect(screen.getByTestId('alarm-late')).toHaveTextContent('在采集1小时5分钟后才送达');
  });

  it('says nothing of late data for a live alarm', async () => {
    await showDetail({ ...alarmRecord(), clearing: null, lateBySeconds: null }, 'en');
    expect(screen.queryByTestId('alarm-late')).toBeNull();
    expect(screen.queryByTestId('alarm-end-reason')).toBeNull();
  });

  const ended = {
    ...alarmRecord(),
    clearing: null,
    endTime: Date.UTC(2025, 5, 1, 9, 0, 0),
    endReason: 'ruleDisabled' as const,
    endedById: '9',
    endedByName: 'Li Wei',
  };

  it('says who ended it by disabling its rule, and that it did not recover', async () => {
    await showDetail(ended, 'en');
    expect(screen.getByTestId('alarm-end-reason')).toHaveTextContent('Ended: rule disabled by Li Wei');
    expect(screen.getByTestId('alarm-end-reason')).toHaveTextContent('not because the value came back');
  });

  it('says so in Chinese for a deleted rule', async () => {
    await showDetail({ ...ended, endReason: 'ruleDeleted' }, 'zh-CN');
    expect(screen.getByTestId('alarm-end-reason')).toHaveTextContent('已结束：规则被 Li Wei 删除');
  });

  it('shows the peak and the latest value apart', async () => {
    await showDetail({ ...alarmRecord(), clearing: null, lastValue: 10, peakValue: 12.4 }, 'en');
    expect(screen.getByTestId('alarm-detail-last-value')).toHaveTextContent('10');
    expect(screen.getByTestId('alarm-detail-peak-value')).toHaveTextContent('12.4');
  });
});

import type { AlarmClearing, AlarmDetailView } from '@coldchain/contract';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { formatTime } from '../devices/format';
import { OPEN_ALARM_REFRESH_MS } from './queries';
import { alarmRecord } from './test-fixtures';

const DETAIL = '/alarm/alarmInfo/alarmDetail?id=101';
const LATEST_TS = Date.UTC(2025, 5, 1, 8, 5, 0);

function value(bounds: { low: number | null; high: number | null }, hysteresis = 0.5): AlarmClearing {
  return { kind: 'value', ...bounds, hysteresis, unit: '°C', latestValue: 9.1, latestTs: LATEST_TS };
}

/** Renders the detail page; `detail` may be a function, to answer differently on a later read. */
async function showDetail(detail: AlarmDetailView | (() => AlarmDetailView), language: 'en' | 'zh-CN') {
  vi.unstubAllGlobals();
  stubServer({
    user: { id: '7' },
    overrides: {
      '/api/alarm/alarmDetail': typeof detail === 'function' ? detail : () => detail,
      '/api/alarm/alarmNotifications': () => [],
    },
  });
  await i18n.changeLanguage(language);
  const view = renderApp(DETAIL);
  await screen.findByTestId('alarm-detail-content');
  return view;
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('alarm detail: why it is still open', () => {
  const time = () => formatTime(LATEST_TS);
  const cases: [string, AlarmClearing, 'en' | 'zh-CN', string[]][] = [
    [
      'two-sided, English',
      value({ low: 2.5, high: 7.5 }),
      'en',
      [
        'Why it is still open',
        'It clears when a reading is between 2.5 and 7.5 °C.',
        'The bounds lie 0.5 °C inside the limits (the hysteresis band)',
        `Latest reading: 9.1 °C at ${time()}.`,
      ],
    ],
    [
      'two-sided, Chinese',
      value({ low: 2.5, high: 7.5 }),
      'zh-CN',
      [
        '报警为何仍未结束',
        '读数回到 2.5 至 7.5 °C 之间时报警结束。',
        '结束条件比报警限值向内收窄 0.5 °C（回差）',
        `最新读数：9.1 °C，时间 ${time()}。`,
      ],
    ],
    [
      'upper bound only, English',
      value({ low: null, high: 7.75 }),
      'en',
      ['It clears when a reading is at or below 7.75 °C'],
    ],
    [
      'upper bound only, Chinese',
      value({ low: null, high: 7.75 }),
      'zh-CN',
      ['读数不高于 7.75 °C 时报警结束'],
    ],
    ['lower bound only, English', value({ low: 2.5, high: null }), 'en', ['at or above 2.5 °C']],
    ['lower bound only, Chinese', value({ low: 2.5, high: null }), 'zh-CN', ['读数不低于 2.5 °C 时报警结束']],
    ['offline, English', { kind: 'offline' }, 'en', ['It clears when the device sends data again.']],
    ['power off, Chinese', { kind: 'powerOff' }, 'zh-CN', ['设备上报恢复供电后报警结束。']],
    [
      'resolve only, English',
      { kind: 'resolveOnly' },
      'en',
      ['It does not clear by itself: it stays open until someone resolves it.'],
    ],
  ];

  it.each(cases)('explains an open alarm: %s', async (_name, clearing, language, texts) => {
    await showDetail({ ...alarmRecord(), clearing }, language);
    const block = screen.getByTestId('alarm-clearing');
    for (const text of texts) expect(block).toHaveTextContent(text);
  });

  it('says nothing of a hysteresis band when the setting has none', async () => {
    await showDetail({ ...alarmRecord(), clearing: value({ low: 2, high: 8 }, 0) }, 'en');
    const block = screen.getByTestId('alarm-clearing');
    expect(block).toHaveTextContent('It clears when a reading is between 2 and 8 °C.');
    expect(block).not.toHaveTextContent('hysteresis');
  });

  it('reads an open alarm again, and drops the block once the alarm has ended', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let detail: AlarmDetailView = { ...alarmRecord(), clearing: value({ low: 2.5, high: 7.5 }) };
    await showDetail(() => detail, 'en');
    expect(screen.getByTestId('alarm-clearing')).toBeInTheDocument();

    detail = { ...alarmRecord({ endTime: Date.UTC(2025, 5, 1, 9, 0, 0), resolveState: 5 }), clearing: null };
    await act(async () => vi.advanceTimersByTimeAsync(OPEN_ALARM_REFRESH_MS - 1_000));
    expect(screen.getByTestId('alarm-clearing')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    await vi.waitFor(() => expect(screen.queryByTestId('alarm-clearing')).toBeNull());
  });

  it.each(['en', 'zh-CN'] as const)('shows nothing for an ended alarm (%s)', async (language) => {
    await showDetail(
      { ...alarmRecord({ endTime: Date.UTC(2025, 5, 1, 9, 0, 0), resolveState: 5 }), clearing: null },
      language,
    );
    expect(screen.queryByTestId('alarm-clearing')).toBeNull();
  });

  it.each([
    ['resolved', 3],
    ['expired', 4],
  ] as const)(
    'shows nothing once the alarm is %s, though its value is still out',
    async (_name, resolveState) => {
      // The server may still say what would clear it; a closed record must not ask why it is open.
      await showDetail({ ...alarmRecord({ resolveState }), clearing: value({ low: 2, high: 8 }) }, 'en');
      expect(screen.getByTestId('alarm-detail')).toBeInTheDocument();
      expect(screen.queryByTestId('alarm-clearing')).toBeNull();
    },
  );
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../test/fake-server';
import { isGuardedCall, RepeatedClickIgnored } from './double-click-guard';
import { RequestError, request } from './request';

function serveCounting() {
  let n = 0;
  const fetchMock = vi.fn(async () => envelope({ n: ++n }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1, 8, 0, 0));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('double-click guard (spec section 9, 1 second)', () => {
  it('sends a changing call repeated within a second once and ignores the repeat', async () => {
    const fetchMock = serveCounting();
    const body = { id: '5', name: 'Fridge A' };
    const [first, second] = await Promise.allSettled([
      request('/api/device/editDevice', body),
      request('/api/device/editDevice', { ...body }),
    ]);
    vi.setSystemTime(Date.now() + 999);
    const third = request('/api/device/editDevice', body);
    expect(first).toEqual({ status: 'fulfilled', value: { n: 1 } });
    // The repeat's handler is told "ignored, nothing to show", so it runs no second toast or download.
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(RepeatedClickIgnored) });
    await expect(third).rejects.toMatchObject({ shown: true, message: '' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('an ignored repeat is not a RequestError, so no page shows it next to a field', async () => {
    serveCounting();
    await request('/api/device/editDevice', { id: '5' });
    const repeat = await request('/api/device/editDevice', { id: '5' }).catch((e: unknown) => e);
    expect(repeat).toBeInstanceOf(RepeatedClickIgnored);
    expect(repeat).not.toBeInstanceOf(RequestError);
  });

  it('sends the same change again once the second has passed', async () => {
    const fetchMock = serveCounting();
    await request('/api/device/editDevice', { id: '5' });
    vi.setSystemTime(Date.now() + 1_000);
    expect(await request('/api/device/editDevice', { id: '5' })).toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a different body, company or path is a new action, not a double click', async () => {
    const fetchMock = serveCounting();
    await request('/api/index/switchUserCompany', { id: 'a' });
    await request('/api/index/switchUserCompany', { id: 'b' });
    // Back to the first company: only a repeat of the very last call is held back.
    await request('/api/index/switchUserCompany', { id: 'a' });
    localStorage.setItem('companyId', 'c2');
    await request('/api/index/switchUserCompany', { id: 'a' });
    await request('/api/user/readNotice', { id: 'a' });
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('never holds back a read: a list read again after a save sees the save', async () => {
    const fetchMock = serveCounting();
    await request('/api/device/pageDevices', { pageNum: 1 });
    expect(await request('/api/device/pageDevices', { pageNum: 1 })).toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('guards changes and exports, not reads', () => {
    for (const path of [
      '/api/device/addDevice',
      '/api/user/dropOutOrganize',
      '/api/alarm/resolveAlarm',
      '/api/alarm/exportAlarms',
      '/api/userLoginLog/auditExportUserLog',
      '/api/device/pushParameters',
      '/api/device/monitoringDevicePay',
    ]) {
      expect(isGuardedCall(path), path).toBe(true);
    }
    for (const path of [
      '/api/device/pageDevices',
      '/api/user/userOrganizeInfo',
      '/api/qrLogin/pollTicket',
      '/api/user/pageFeedback',
      '/api/device/parameterState',
    ]) {
      expect(isGuardedCall(path), path).toBe(false);
    }
  });
});

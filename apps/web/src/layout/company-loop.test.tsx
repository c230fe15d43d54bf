import { Limits } from '@coldchain/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { demoCompanies, stubServer } from '../test/fake-server';
import { renderApp, resetBrowserState } from '../test/render-app';
import { COMPANY_LOOP_KEY, nextCompanyId } from './company-loop';

const THREE = [
  ...demoCompanies,
  { id: 'c3', name: 'Third Company', industry: 'food', address: '', isAdmin: false, current: false },
];

function switchedTo(fetchMock: ReturnType<typeof stubServer>): string[] {
  return fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/index/switchUserCompany')
    .map(([, init]) => (JSON.parse(String(init?.body)) as { id: string }).id);
}

async function openSelector() {
  fireEvent.mouseDown(within(screen.getByTestId('company-select')).getByRole('combobox'));
  await screen.findByText('Third Company', { selector: '.ant-select-item-option-content' });
  return [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
}

async function pick(label: string) {
  fireEvent.click(await screen.findByText(label, { selector: '.ant-select-item-option-content' }));
}

async function passLoopInterval() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(Limits.companyLoopSwitchMs);
  });
}

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
  localStorage.setItem('accessToken', 'token-1');
  localStorage.setItem('companyId', 'c1');
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('company loop', () => {
  it('is the first entry; chosen, it moves to the next company every 10 minutes until a company is picked', async () => {
    const fetchMock = stubServer({ overrides: { '/api/index/getUserCompanys': () => THREE } });
    renderApp('/home');
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    const options = await openSelector();
    expect(options).toEqual([
      'Loop through companies (every 10 min)',
      'Demo Cold Chain',
      'Second Company',
      'Third Company',
    ]);

    await pick('Loop through companies (every 10 min)');
    expect(localStorage.getItem(COMPANY_LOOP_KEY)).toBe('1');
    await waitFor(() =>
      expect(screen.getByTestId('company-select')).toHaveTextContent('Loop: Demo Cold Chain'),
    );
    // Nothing moves before the interval has passed.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Limits.companyLoopSwitchMs - 1_000);
    });
    expect(switchedTo(fetchMock)).toEqual([]);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await waitFor(() => expect(localStorage.getItem('companyId')).toBe('c2'));
    await waitFor(() =>
      expect(screen.getByTestId('company-select')).toHaveTextContent('Loop: Second Company'),
    );
    await passLoopInterval();
    await waitFor(() => expect(localStorage.getItem('companyId')).toBe('c3'));
    await passLoopInterval();
    await waitFor(() => expect(localStorage.getItem('companyId')).toBe('c1'));
    expect(switchedTo(fetchMock)).toEqual(['c2', 'c3', 'c1']);

    // Picking a company ends the loop and forgets it.
    await openSelector();
    await pick('Second Company');
    await waitFor(() => expect(localStorage.getItem('companyId')).toBe('c2'));
    expect(localStorage.getItem(COMPANY_LOOP_KEY)).toBeNull();
    await passLoopInterval();
    await passLoopInterval();
    expect(switchedTo(fetchMock)).toEqual(['c2', 'c3', 'c1', 'c2']);
    expect(screen.getByTestId('company-select')).toHaveTextContent('Second Company');
  });

  it('resumes a remembered loop after a reload, and company data is fetched again for the new company', async () => {
    localStorage.setItem(COMPANY_LOOP_KEY, '1');
    const fetchMock = stubServer({ overrides: { '/api/index/getUserCompanys': () => THREE } });
    renderApp('/home');
    await waitFor(() =>
      expect(screen.getByTestId('company-select')).toHaveTextContent('Loop: Demo Cold Chain'),
    );
    const powersBefore = fetchMock.mock.calls.filter(
      ([i]) => String(i) === '/api/index/getUserPowers',
    ).length;
    await passLoopInterval();
    await waitFor(() => expect(switchedTo(fetchMock)).toEqual(['c2']));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([i]) => String(i) === '/api/index/getUserPowers').length,
      ).toBeGreaterThan(powersBefore),
    );
    const lastPowers = fetchMock.mock.calls.filter(([i]) => String(i) === '/api/index/getUserPowers').at(-1)!;
    expect(new Headers(lastPowers[1]?.headers).get('companyId')).toBe('c2');
  });

  it('is hidden with one company, and a remembered loop then does nothing', async () => {
    localStorage.setItem(COMPANY_LOOP_KEY, '1');
    const fetchMock = stubServer({ overrides: { '/api/index/getUserCompanys': () => [demoCompanies[0]!] } });
    renderApp('/home');
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    expect(screen.getByTestId('company-select')).not.toHaveTextContent('Loop');
    fireEvent.mouseDown(within(screen.getByTestId('company-select')).getByRole('combobox'));
    await screen.findByText('Demo Cold Chain', { selector: '.ant-select-item-option-content' });
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
      'Demo Cold Chain',
    ]);
    await passLoopInterval();
    expect(switchedTo(fetchMock)).toEqual([]);
  });

  it('wraps round to the first company, and starts there from an unknown one', () => {
    expect(nextCompanyId(demoCompanies, 'c2')).toBe('c1');
    expect(nextCompanyId(demoCompanies, 'c1')).toBe('c2');
    expect(nextCompanyId(demoCompanies, 'gone')).toBe('c1');
  });
});

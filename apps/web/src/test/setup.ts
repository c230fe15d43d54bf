import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeAll, vi } from 'vitest';
import { forgetRecentChanges } from '../api/double-click-guard';
import i18n, { loadEveryCatalogue } from '../i18n';
import { resetBrowserState } from './browser-state';
import { FakeAudio, FakeWebSocket } from './fake-websocket';

// findBy/waitFor give up after 1 s by default; rendering antd in jsdom on a busy 2-core machine
// can take longer, and a test should fail on a wrong screen, not on a slow one. `npm test` runs
// this suite beside the server's, whose deployment and two-instance tests start whole servers:
// on a slow CI host the device list has been seen to take over 8 s to appear then. Tests rely on
// this one limit rather than shorter ones of their own.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks these; antd's responsive helpers and the router's scroll reset call them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
// Assigned, not stubbed: tests call vi.unstubAllGlobals() for their fake fetch.
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
// jsdom computes no pseudo-element styles: asked for one (antd measures `::-webkit-scrollbar` on
// every dialog and scroll area), it reports "not implemented" through an Error and its stack, then
// returns the element's own style anyway. Asking for the element's style directly skips the Error.
const elementStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => elementStyle(element);
// The layout opens the live alarm socket and may play the alarm sound: neither leaves jsdom.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
window.Audio = FakeAudio as unknown as typeof Audio;

afterEach(() => {
  cleanup();
  // One test's save must not swallow the same save in the next test.
  forgetRecentChanges();
  FakeWebSocket.reset();
  FakeAudio.reset();
});

// Files share a worker's loaded modules (vitest.config.ts, isolate: false), so the language a
// file switched to would carry over: each file starts as a first page load does, in English with
// nothing remembered.
beforeAll(async () => {
  resetBrowserState();
  dayjs.locale('en');
  // Screens rendered without the router have no route to load their strings (i18n/index.ts).
  await loadEveryCatalogue();
  await i18n.changeLanguage('en');
});

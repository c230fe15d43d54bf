import { StyleProvider } from '@ant-design/cssinjs';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders, createQueryClient } from '../App';
import { AppRoutes } from '../router/AppRoutes';
// The router loads the layout and the home page on first visit (router/lazy-screen.tsx); loading
// them with the test file keeps their first compile out of each test's time limits.
import '../antd-scope';
import '../layout/AppLayout';
import '../pages/home';
import '../router/RequireAuth';

/** Exposes the router's location to assertions (MemoryRouter has no address bar). */
export const currentLocation = { path: '' };

function LocationProbe() {
  const location = useLocation();
  currentLocation.path = location.pathname + location.search;
  return <div data-testid="location">{currentLocation.path}</div>;
}

/**
 * Renders the whole console at `path`, as the browser would after a page load.
 *
 * antd still builds every component's styles, but `mock="server"` keeps them out of the document:
 * jsdom lays nothing out, yet its getComputedStyle (asked by Testing Library's role queries and
 * user-event's pointer-events check, for an element and each ancestor) matched every element
 * against all of antd's injected rules. Without them the suite needs 40 % less CPU (500 to 315
 * CPU-s alone on 2 cores), with the same 520 tests passing. What styling decides (hidden
 * popups, layout at 390 px) is the browser suite's job (e2e/).
 */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const view = render(
    <StyleProvider mock="server">
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>
    </StyleProvider>,
  );
  return { ...view, queryClient };
}

export { resetBrowserState } from './browser-state';

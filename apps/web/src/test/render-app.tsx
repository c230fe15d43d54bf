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

/** Renders the whole console at `path`, as the browser would after a page load. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, queryClient };
}

export { resetBrowserState } from './browser-state';

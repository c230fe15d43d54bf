// First: zod must not probe for eval under the Content-Security-Policy.
import './zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AntdGate } from './antd-gate';
import { AppRoutes } from './router/AppRoutes';
import { createQueryClient, ShellProviders } from './shell-providers';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <ShellProviders queryClient={createQueryClient()}>
      {/* Render a navigation in the same task as the URL change (no transition), so the URL
          and the page on screen never disagree, for people and for browser tests alike. */}
      <BrowserRouter useTransitions={false}>
        {/* antd's providers join when the first screen drawn with antd loads (antd-gate.tsx). */}
        <AntdGate>
          <AppRoutes />
        </AntdGate>
      </BrowserRouter>
    </ShellProviders>
  </StrictMode>,
);

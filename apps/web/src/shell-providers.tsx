import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import i18n from './i18n';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } },
  });
}

/**
 * The providers every screen needs, without Ant Design: the login page is drawn without it so that
 * a first visit loads a fraction of the console (docs/performance.md, "Console weight"). Screens
 * that use antd get ConfigProvider and App from antd-scope.tsx once their chunk has loaded.
 */
export function ShellProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}

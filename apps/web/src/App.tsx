import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AntdScope } from './antd-scope';
import { ShellProviders } from './shell-providers';

export { createQueryClient } from './shell-providers';

/**
 * Everything the console needs above the router, antd included, for unit tests, which wrap
 * components in it; antd's animations are off there (antd-scope.tsx). main.tsx starts with
 * ShellProviders only and adds AntdScope when a screen that uses antd loads.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ShellProviders queryClient={queryClient}>
      <AntdScope still>{children}</AntdScope>
    </ShellProviders>
  );
}

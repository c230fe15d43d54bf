import { type ComponentType, type ReactNode, useSyncExternalStore } from 'react';

type Scope = ComponentType<{ children: ReactNode }>;

let scope: Scope | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Loads antd's providers (antd-scope.tsx) and puts them around the whole console from then on.
 * Screens that use antd call this as they load (router/lazy-screen.tsx); the login page does not,
 * so a first visit to /login loads no antd at all.
 */
export async function loadAntdScope(): Promise<void> {
  const module = await import('./antd-scope');
  if (scope) return;
  scope = module.AntdScope;
  for (const listener of listeners) listener();
}

/**
 * The console without antd's providers until a screen needs them, then inside them for good: the
 * screen below is mounted again once, while its chunk is still loading, and toasts and modals keep
 * one holder across every later navigation, back to /login too.
 */
export function AntdGate({ children }: { children: ReactNode }) {
  const Scope = useSyncExternalStore(subscribe, () => scope);
  return Scope ? <Scope>{children}</Scope> : children;
}

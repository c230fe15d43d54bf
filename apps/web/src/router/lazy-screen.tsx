import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAntdScope } from '../antd-gate';
import { loadConsoleCatalogue } from '../i18n';
import './shell.css';

/*
 * Screens load on first visit, so the entry bundle holds only what /login needs
 * (docs/performance.md, "Console weight"): the login page itself, the router, the request
 * wrapper and the strings of those three. Everything else (the layout, every page, antd, the
 * other strings) is a chunk of its own that the router fetches when a screen needs it.
 */

// biome-ignore lint/suspicious/noExplicitAny: the same bound as React.lazy's, for any props
type Screen = ComponentType<any>;

/** A page inside the layout: its chunk and the console's strings in the language in use. */
export function lazyScreen<T extends Screen>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => Promise.all([load(), loadConsoleCatalogue()]).then(([module]) => module));
}

/**
 * A screen the router shows at the top (the layout, the public account pages, /404): also puts
 * antd's providers around the console (antd-gate.tsx), since every such screen is drawn with antd.
 */
export function lazyTopScreen<T extends Screen>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() =>
    Promise.all([load(), loadConsoleCatalogue(), loadAntdScope()]).then(([module]) => module),
  );
}

/** What shows while a screen's chunk loads; drawn without antd, which may not have loaded yet. */
export function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <div className="cc-screen-loading">
      <span className="cc-spinner" role="status" aria-label={t('common.loading')} />
    </div>
  );
}

export function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ScreenLoading />}>{children}</Suspense>;
}

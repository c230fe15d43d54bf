import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setNoticeTarget } from './router/notices';
import { useNotify } from './router/notify';
import { appTheme } from './theme';

const InsideScope = createContext(false);

/** While antd's App is mounted, the request wrapper's messages are its toasts like every page's. */
function NoticeTarget() {
  const notify = useNotify();
  useEffect(() => setNoticeTarget(notify), [notify]);
  return null;
}

/*
 * Unit tests render without the click wave, which measures styles on every button press. Motion
 * stays on: without it a form redraws its messages between validations, so a message a test has
 * just found can already be detached (seen as flaky "not in the document" failures).
 */
const NO_WAVE = { disabled: true };

/**
 * antd's ConfigProvider (its own texts follow the interface language; the theme of theme.ts) and
 * App (toasts, modals) around every screen that uses antd. Rendered once, at the root: main.tsx
 * adds it when the first such screen loads (antd-gate.tsx), tests through AppProviders; an inner
 * one is a no-op.
 */
export function AntdScope({ children, still = false }: { children: ReactNode; still?: boolean }) {
  const inside = useContext(InsideScope);
  const { i18n: active } = useTranslation();
  if (inside) return children;
  const zh = active.language === 'zh-CN';
  return (
    <InsideScope.Provider value={true}>
      <ConfigProvider locale={zh ? zhCN : enUS} theme={appTheme} wave={still ? NO_WAVE : undefined}>
        <AntApp message={{ maxCount: 3 }}>
          <NoticeTarget />
          {children}
        </AntApp>
      </ConfigProvider>
    </InsideScope.Provider>
  );
}

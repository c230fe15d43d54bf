import { type KeyboardEvent, type ReactNode, useRef } from 'react';

export interface LoginTab<K extends string> {
  key: K;
  label: string;
}

interface Props<K extends string> {
  label: string;
  tabs: LoginTab<K>[];
  active: K;
  onChange: (key: K) => void;
  children: ReactNode;
}

/**
 * The login's tabs without antd (login.css): the WAI-ARIA tabs pattern, arrow keys, Home and End
 * move between tabs and select them, and only the chosen tab is in the Tab order.
 */
export function LoginTabs<K extends string>({ label, tabs, active, onChange, children }: Props<K>) {
  const buttons = useRef<Partial<Record<K, HTMLButtonElement | null>>>({});
  const keyDown = (event: KeyboardEvent, index: number) => {
    const steps: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: -1 };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = tabs.at(step % tabs.length);
    if (!next) return;
    onChange(next.key);
    buttons.current[next.key]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="cc-tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(element) => {
              buttons.current[tab.key] = element;
            }}
            type="button"
            role="tab"
            id={`login-tab-${tab.key}`}
            aria-selected={tab.key === active}
            aria-controls="login-tabpanel"
            tabIndex={tab.key === active ? 0 : -1}
            className="cc-tab"
            onClick={() => onChange(tab.key)}
            onKeyDown={(event) => keyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="login-tabpanel" aria-labelledby={`login-tab-${active}`}>
        {children}
      </div>
    </>
  );
}

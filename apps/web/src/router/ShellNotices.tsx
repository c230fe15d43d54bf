import { useSyncExternalStore } from 'react';
import type { NotifyType } from '../api/request';
import { shellNotices, subscribeShellNotices } from './notices';
import { ErrorIcon, type IconShape, InfoIcon, ShellIcon, SuccessIcon, WarningIcon } from './shell-icon';
import './shell.css';

const ICONS: Record<NotifyType, IconShape> = {
  success: SuccessIcon,
  error: ErrorIcon,
  warning: WarningIcon,
  info: InfoIcon,
};

/** The request wrapper's messages before antd has loaded (notices.ts), drawn as antd draws its toasts. */
export function ShellNotices() {
  const notices = useSyncExternalStore(subscribeShellNotices, shellNotices);
  if (notices.length === 0) return null;
  return (
    <div className="cc-notices">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`cc-notice cc-notice-${notice.type}`}
          role={notice.type === 'error' || notice.type === 'warning' ? 'alert' : 'status'}
        >
          <ShellIcon shape={ICONS[notice.type]} className="cc-notice-icon" />
          <span>{notice.content}</span>
        </div>
      ))}
    </div>
  );
}

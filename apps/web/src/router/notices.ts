import type { Notice } from '../api/request';

/*
 * Where the request wrapper's messages go. Inside antd's App (every screen but a first visit to
 * /login) they are antd toasts like any page's (antd-scope.tsx registers them); before antd has
 * loaded, the shell shows them itself (ShellNotices.tsx), so a wrong password on the login page
 * does not wait for antd to download.
 */

type Show = (notice: Notice) => void;

export interface ShellNotice extends Notice {
  id: number;
}

/** As antd's App is configured: at most three toasts at a time. */
const MAX_SHOWN = 3;

let target: Show | null = null;
let shown: readonly ShellNotice[] = [];
let nextId = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Sends every later message to `show`; the returned function stops that (if still the target). */
export function setNoticeTarget(show: Show): () => void {
  target = show;
  return () => {
    if (target === show) target = null;
  };
}

export function showNotice(notice: Notice): void {
  if (target) {
    target(notice);
    return;
  }
  const id = ++nextId;
  shown = [...shown, { ...notice, id }].slice(-MAX_SHOWN);
  emit();
  setTimeout(() => {
    shown = shown.filter((entry) => entry.id !== id);
    emit();
  }, notice.duration * 1000);
}

export function subscribeShellNotices(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function shellNotices(): readonly ShellNotice[] {
  return shown;
}

import { isChangingCall, Limits } from '@coldchain/contract';

/**
 * The double-click guard of spec section 9 ("1 second default"), kept in the one request wrapper
 * so that every button, dialog OK and Enter key that changes data is covered without each page
 * remembering it: a changing call repeated with the same body (and company) within
 * `Limits.doubleClickGuardMs` of the first is not sent again, and the repeat is ignored: it
 * rejects with `RepeatedClickIgnored`, which every caller already treats as "the user was told"
 * (`shown`), so its handler does nothing. Sharing the first answer instead would run the handler
 * twice: two "saved" toasts, two downloads of one export. Reads are never held back: a list read
 * again after a save must see the save.
 */

/** Calls that change data (or send something) although the contract's naming rule does not say so. */
const ALSO_CHANGING = /^(export|auditExport|push|doLogin|monitoringDevicePay$|monitoringDeviceRecovery$)/;

export function isGuardedCall(path: string): boolean {
  const name = path.split('/').pop() ?? '';
  return isChangingCall(path) || ALSO_CHANGING.test(name);
}

/** The rejection of an ignored repeat. Not a RequestError: no message, nothing to show or to place. */
export class RepeatedClickIgnored extends Error {
  readonly shown = true;
  constructor(readonly path: string) {
    super('');
    this.name = 'RepeatedClickIgnored';
  }
}

interface RecentChange {
  key: string;
  sentAt: number;
}

/** The latest changing call per path: only a repeat of the very last one is a double click. */
const recent = new Map<string, RecentChange>();

export function guardRepeatedChange<T>(path: string, key: string, send: () => Promise<T>): Promise<T> {
  if (!isGuardedCall(path)) return send();
  const now = Date.now();
  const last = recent.get(path);
  if (last && last.key === key && now - last.sentAt < Limits.doubleClickGuardMs) {
    return Promise.reject(new RepeatedClickIgnored(path));
  }
  recent.set(path, { key, sentAt: now });
  return send();
}

/** Tests start each case with no remembered call (modules are shared between test files). */
export function forgetRecentChanges(): void {
  recent.clear();
}

import { Limits, type UserCompany } from '@coldchain/contract';
import { useEffect, useRef } from 'react';
import { getCompanyId } from '../session/storage';

/*
 * Company loop (spec section 9): for wall displays that watch several companies, the console
 * moves to the next of the user's companies every Limits.companyLoopSwitchMs until the user
 * picks a company. The choice belongs to the browser, so it survives reloads and log-outs.
 */

/** The selector's value of the loop entry; company ids are numeric strings, so it cannot clash. */
export const LOOP_VALUE = '__loop__';
export const COMPANY_LOOP_KEY = 'companyLoop';

export function readCompanyLoop(): boolean {
  return localStorage.getItem(COMPANY_LOOP_KEY) === '1';
}

export function writeCompanyLoop(on: boolean): void {
  if (on) localStorage.setItem(COMPANY_LOOP_KEY, '1');
  else localStorage.removeItem(COMPANY_LOOP_KEY);
}

/** The company after `current` in the user's list, wrapping round; the first when `current` is unknown. */
export function nextCompanyId(companies: readonly UserCompany[], current: string | null): string | undefined {
  const index = companies.findIndex((c) => c.id === current);
  return companies[(index + 1) % companies.length]?.id;
}

/** While `active`, switches to the next company every interval; `switchTo` is the normal switch flow. */
export function useCompanyLoop(
  active: boolean,
  companies: readonly UserCompany[] | undefined,
  switchTo: (id: string) => Promise<void>,
): void {
  const latest = useRef({ companies, switchTo });
  latest.current = { companies, switchTo };
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      const list = latest.current.companies ?? [];
      if (list.length < 2) return;
      const next = nextCompanyId(list, getCompanyId());
      if (next) void latest.current.switchTo(next);
    }, Limits.companyLoopSwitchMs);
    return () => clearInterval(timer);
  }, [active]);
}

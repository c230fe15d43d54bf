import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Auth } from '../../plugins/auth';
import { devices } from '../devices/devices.table';
import { editableDevices, visibleDevices, wholeCompanyOf } from './access';

/**
 * Services answer a whole company's scope with statements built once (wholeCompanyOf, org/
 * access.ts), so only a scope that admits exactly the company's devices may be taken for one.
 */
describe('whole-company scopes', () => {
  const admin = { userId: 1, companyId: 7, scopePath: null } as Auth;
  const member = { userId: 2, companyId: 7, scopePath: '/1/4/' } as Auth;

  it("knows the company of an administrator's or root member's scope, and no other", () => {
    expect(wholeCompanyOf(visibleDevices(admin))).toBe(7);
    expect(wholeCompanyOf(editableDevices(admin))).toBe(7);
    // A department member's scope, a narrowed scope and a look-alike are not the whole company's.
    expect(wholeCompanyOf(visibleDevices(member))).toBeUndefined();
    expect(wholeCompanyOf(editableDevices(member))).toBeUndefined();
    expect(wholeCompanyOf(sql`${visibleDevices(admin)} and ${devices.state} = 1`)).toBeUndefined();
    expect(wholeCompanyOf(eq(devices.companyId, 7))).toBeUndefined();
  });

  it('cannot be narrowed in place', () => {
    const scope = visibleDevices(admin);
    expect(() => scope.append(sql` and ${devices.state} = 1`)).toThrow(TypeError);
    expect(wholeCompanyOf(scope)).toBe(7);
  });
});

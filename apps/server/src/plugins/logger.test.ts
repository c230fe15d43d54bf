import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../test/build-app';
import { buildCompany, login } from '../test/factories';
import { REDACTED_PATHS } from './logger';

const lines: string[] = [];

describe('structured logs', () => {
  const ctx = useTestApp(
    {},
    {
      level: 'trace',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      stream: { write: (l: string) => lines.push(l) },
    },
  );

  it('are JSON lines that never contain passwords or tokens', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    await call(ctx.app, '/api/user/userInfo', {}, { token });
    await call(ctx.app, '/api/doLogin', { account: company.admin.account, password: 'WrongSecret99' });
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const all = lines.join('\n');
    expect(all).toContain('/api/user/userInfo');
    expect(all).not.toContain(token);
    expect(all).not.toContain(company.admin.password);
    expect(all).not.toContain('WrongSecret99');
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { CLOSE_UNAUTHORIZED } from './live.routes';

function nextMessage(socket: import('ws').WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

function closeCode(socket: import('ws').WebSocket): Promise<number> {
  return new Promise((resolve) => socket.on('close', (code) => resolve(code)));
}

describe('live channel /api/ws', () => {
  const ctx = useTestApp();

  it('binds with the access token and delivers pushes for that user', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const socket = await ctx.app.injectWS('/api/ws');
    const bound = nextMessage(socket);
    socket.send(JSON.stringify({ bindType: 2, bindContent: token }));
    expect(await bound).toEqual({ type: 'bind', bindContent: { ok: true } });
    const pushed = nextMessage(socket);
    const alarm = {
      type: 'alarm' as const,
      bindContent: { deviceSerial: 'SIM1001', alarmContent: { cn: '超限', en: 'Over limit' } },
    };
    expect(ctx.app.hub.push([company.admin.id], alarm)).toBe(1);
    expect(await pushed).toEqual(alarm);
    // Nobody else receives it.
    expect(ctx.app.hub.push([company.admin.id + 999], alarm)).toBe(0);
    socket.terminate();
  });

  it('closes with 4401 on a bad token or a malformed bind message', async () => {
    for (const message of [
      JSON.stringify({ bindType: 2, bindContent: 'nope' }),
      'not json',
      JSON.stringify({ bindType: 1, bindContent: 'x' }),
    ]) {
      const socket = await ctx.app.injectWS('/api/ws');
      const closed = closeCode(socket);
      socket.send(message);
      expect(await closed).toBe(CLOSE_UNAUTHORIZED);
    }
  });
});

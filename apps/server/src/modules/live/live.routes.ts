import type { FastifyPluginAsync } from 'fastify';
import { resolveAuth } from '../../plugins/auth';
import type { LiveHub } from './live-hub';

/** Close code for a missing or bad token (API.md). */
export const CLOSE_UNAUTHORIZED = 4401;
/** A socket that does not bind within this time is closed, so idle anonymous sockets cannot pile up. */
const BIND_TIMEOUT_MS = 10_000;

/**
 * `/api/ws`: the client opens the socket and sends `{ bindType: 2, bindContent: <accessToken> }`;
 * from then on the server pushes this user's alarms, notices and device states.
 */
export const liveRoutes: FastifyPluginAsync<{ hub: LiveHub; sessionIdleMs: number }> = async (
  app,
  options,
) => {
  app.get('/api/ws', { websocket: true, config: { public: true, rateLimit: false } }, (socket) => {
    let bound = false;
    const timer = setTimeout(() => {
      if (!bound) socket.close(CLOSE_UNAUTHORIZED, 'bind timeout');
    }, BIND_TIMEOUT_MS);
    socket.on('close', () => clearTimeout(timer));
    socket.on('message', async (raw) => {
      if (bound) return;
      let token: unknown;
      try {
        const message = JSON.parse(raw.toString());
        token = message?.bindType === 2 ? message.bindContent : undefined;
      } catch {
        token = undefined;
      }
      try {
        if (typeof token !== 'string') throw new Error('no token');
        const auth = await resolveAuth(app.db, token, undefined, options.sessionIdleMs);
        // A password-change-only session (renewal, msgCode 301) gets nothing else.
        if (auth.passwordChangeOnly) throw new Error('password change first');
        bound = true;
        clearTimeout(timer);
        options.hub.add(auth.userId, socket);
        socket.send(JSON.stringify({ type: 'bind', bindContent: { ok: true } }));
      } catch {
        socket.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      }
    });
  });
};

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { queryRows } from '../../db/client';
import { buildCompany, login } from '../../test/factories';
import { useTwoInstances } from '../../test/two-instances';
import { sleep, until } from '../../test/until';
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { ensureReadingPartitions } from '../telemetry/partitions';
import type { LiveMessage } from './live-hub';
import { encode, LIVE_CHANNEL } from './live-relay';

/** A bound live socket on `app` that records every push it gets. */
async function liveSocket(app: FastifyInstance, token: string) {
  const socket: WebSocket = await app.injectWS('/api/ws');
  const received: LiveMessage[] = [];
  const bound = new Promise<void>((resolve) =>
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as LiveMessage | { type: 'bind' };
      if (message.type === 'bind') resolve();
      else received.push(message as LiveMessage);
    }),
  );
  socket.send(JSON.stringify({ bindType: 2, bindContent: token }));
  await bound;
  return { socket, received, alarms: () => received.filter((m) => m.type === 'alarm') };
}

/**
 * Two server instances on one PostgreSQL database (its own fresh database on the local server,
 * whatever the rest of the suite runs on): live pushes cross between them through LISTEN/NOTIFY.
 */
describe('live fan-out between instances on PostgreSQL', () => {
  const two = useTwoInstances({ prepare: (database) => ensureReadingPartitions(database.db) });

  /** The backends listening on the live channel (one per instance). */
  const listeners = async () =>
    (
      await queryRows<{ pid: number }>(
        two.databaseA.db,
        sql`select pid from pg_stat_activity
             where datname = current_database() and query = ${`listen ${LIVE_CHANNEL}`}`,
      )
    ).map((r) => r.pid);

  it('an alarm raised on instance A reaches the user socket on instance B exactly once, and nobody else', async () => {
    expect(two.appA.database.kind).toBe('postgres');
    const f = await alarmFixture(two.appA);
    expect((await f.save({ channels: [] })).body.msgCode).toBe(200);
    const onB = await liveSocket(two.appB, f.token);
    const onA = await liveSocket(two.appA, f.token);
    const stranger = await buildCompany(two.appB.db);
    const strangerOnB = await liveSocket(two.appB, await login(two.appB, stranger.admin.account));

    const now = Date.now();
    await postReadings(two.appA, f.device, [{ ts: now - 1000, v: 5 }]);
    expect((await postReadings(two.appA, f.device, [{ ts: now, v: 9.4 }])).statusCode).toBe(200);
    await two.appA.alarms.idle();

    await until(() => onB.alarms().length > 0, 'the alarm on instance B');
    // Time for a duplicate (the origin's own notification, a second relay) to show up.
    await sleep(500);
    expect(onB.alarms()).toHaveLength(1);
    expect(onB.alarms()[0]!.bindContent).toMatchObject({ deviceSerial: f.device.serial });
    // The origin pushed to its own socket once: it ignores its own notification.
    expect(onA.alarms()).toHaveLength(1);
    expect(onA.received).toEqual(onB.received);
    expect(strangerOnB.received).toEqual([]);
    for (const s of [onA, onB, strangerOnB]) s.socket.terminate();
  });

  it('a recipient list too long for NOTIFY goes by device and each instance works out who may see it', async () => {
    const f = await alarmFixture(two.appA, 'Freezer 2');
    const onB = await liveSocket(two.appB, f.token);
    const stranger = await buildCompany(two.appB.db);
    const strangerOnB = await liveSocket(two.appB, await login(two.appB, stranger.admin.account));
    const message: LiveMessage = { type: 'deviceState', bindContent: { deviceSerial: f.device.serial } };
    // 3000 ids that are nobody, then the admin: the list does not fit in 8000 bytes.
    const userIds = [...Array.from({ length: 3000 }, (_, i) => 10_000_000 + i), f.company.admin.id];
    const target = { userIds, companyId: f.company.id, deviceId: Number(f.device.id) };
    expect(JSON.parse(encode('x', target, message)!)).toEqual({
      o: 'x',
      m: message,
      c: target.companyId,
      d: target.deviceId,
    });
    await two.appA.hub.publish(target, message);
    await until(() => onB.received.length > 0, 'the by-device message on instance B');
    await sleep(300);
    expect(onB.received).toEqual([message]);
    expect(strangerOnB.received).toEqual([]);
    // A message that cannot fit at all is not sent (and the origin logs it).
    expect(encode('x', target, { type: 'notice', bindContent: 'x'.repeat(8000) })).toBeNull();
    onB.socket.terminate();
    strangerOnB.socket.terminate();
  });

  it('reconnects its LISTEN connection after the database drops it', async () => {
    const f = await alarmFixture(two.appA, 'Fridge 3');
    const onB = await liveSocket(two.appB, f.token);
    const before = await listeners();
    expect(before).toHaveLength(2);
    await queryRows(
      two.databaseA.db,
      sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query = ${`listen ${LIVE_CHANNEL}`}`,
    );
    await until(async () => {
      const now = await listeners();
      return now.length === 2 && now.every((pid) => !before.includes(pid));
    }, 'both instances listening again');
    const message: LiveMessage = { type: 'notice', bindContent: { title: 'after reconnect' } };
    await two.appA.hub.publish({ userIds: [f.company.admin.id] }, message);
    await until(() => onB.received.length > 0, 'the message after reconnecting');
    expect(onB.received).toEqual([message]);
    onB.socket.terminate();
  });
});

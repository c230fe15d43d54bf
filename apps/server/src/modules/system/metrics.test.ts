import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { raiseAlarm } from '../delivery/delivery-test-support';

const TOKEN = 'metrics-token-0123456789';

const METRIC_NAMES = [
  'coldchain_readings_stored_total',
  'coldchain_ingest_batch_messages',
  'coldchain_alarm_judging_seconds',
  'coldchain_alarm_deliveries_total',
  'coldchain_live_sockets',
  'coldchain_mqtt_connects_waiting',
  'coldchain_job_queue_depth',
  'coldchain_job_queue_oldest_age_seconds',
  'coldchain_db_pool_connections',
  'nodejs_eventloop_lag_seconds',
  'process_cpu_seconds_total',
];

function scrape(app: FastifyInstance, authorization?: string) {
  return app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization ? { authorization } : {},
  });
}

/** A sample's value from the text format (`name{labels} value`). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`${series} not in the scrape`);
  return Number(line.slice(series.length + 1));
}

describe('/metrics without METRICS_TOKEN', () => {
  const ctx = useTestApp();

  it('is off: 404 with or without a bearer', async () => {
    expect((await scrape(ctx.app)).statusCode).toBe(404);
    expect((await scrape(ctx.app, `Bearer ${TOKEN}`)).statusCode).toBe(404);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  const ctx = useTestApp({ metricsToken: TOKEN });

  it('refuses a scrape without the bearer token or with a wrong one', async () => {
    for (const header of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', TOKEN]) {
      const response = await scrape(ctx.app, header);
      expect(response.statusCode, String(header)).toBe(401);
      expect(response.body).not.toContain('coldchain_');
    }
  });

  it('leaves /healthz and /readyz open: they need no token', async () => {
    for (const url of ['/healthz', '/readyz'])
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });

  it('answers the Prometheus text format with the process and platform metrics', async () => {
    const response = await scrape(ctx.app, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of METRIC_NAMES) expect(response.body).toContain(`# HELP ${name} `);
    // The embedded database: one connection, documented as such.
    expect(sample(response.body, 'coldchain_db_pool_connections{state="total"}')).toBe(1);
    expect(sample(response.body, 'coldchain_live_sockets')).toBe(0);
    expect(sample(response.body, 'coldchain_mqtt_connects_waiting')).toBe(0);
    expect(sample(response.body, 'coldchain_job_queue_depth')).toBe(0);
  });

  it('counts the readings a batch stored, its messages, and its alarm judging', async () => {
    const before = (await scrape(ctx.app, `Bearer ${TOKEN}`)).body;
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const now = Date.now();
    const records = [3, 2, 1].map((s) => ({ ts: now - s * 1000, channels: [{ ch: 1, v: 4 + s }] }));
    const headers = {
      authorization: `Basic ${Buffer.from(`${device.serial}:${device.deviceKey}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const send = () =>
      ctx.app.inject({ method: 'POST', url: '/device/v1/up', headers, payload: JSON.stringify({ records }) });
    const up = await send();
    expect(up.json()).toMatchObject({ stored: 3 });
    const after = (await scrape(ctx.app, `Bearer ${TOKEN}`)).body;
    const grew = (series: string) => sample(after, series) - sample(before, series);
    expect(grew('coldchain_readings_stored_total')).toBe(3);
    expect(grew('coldchain_ingest_batch_messages_count')).toBe(1);
    expect(grew('coldchain_ingest_batch_messages_sum')).toBe(1);
    expect(grew('coldchain_alarm_judging_seconds_count')).toBe(1);

    // A repeat stores nothing: the batch is counted, the readings are not.
    expect((await send()).json()).toMatchObject({ stored: 0, duplicates: 3 });
    const repeat = (await scrape(ctx.app, `Bearer ${TOKEN}`)).body;
    expect(sample(repeat, 'coldchain_readings_stored_total')).toBe(
      sample(after, 'coldchain_readings_stored_total'),
    );
  });
});

describe('/metrics: jobs and alarm deliveries', () => {
  const ctx = useTestApp({ metricsToken: TOKEN });
  const read = async () => (await scrape(ctx.app, `Bearer ${TOKEN}`)).body;

  it('reads the depth of due queued jobs and the age of the oldest at scrape time', async () => {
    // No handler for this kind and the queue is not started in tests: the job stays queued.
    await ctx.app.jobs.enqueue('metrics.test', {}, { runAt: new Date(Date.now() - 60_000) });
    await ctx.app.jobs.enqueue('metrics.test', {}, { runAt: new Date(Date.now() + 3_600_000) });
    const text = await read();
    expect(sample(text, 'coldchain_job_queue_depth')).toBe(1);
    expect(sample(text, 'coldchain_job_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(59);
  });

  it('counts each recorded delivery outcome by channel', async () => {
    // Twilio is not configured here: the SMS is recorded as `not configured`.
    await raiseAlarm(ctx.app, ['sms']);
    await ctx.app.delivery.deliverDue();
    const line = (await read())
      .split('\n')
      .find((l) => l.startsWith('coldchain_alarm_deliveries_total{') && l.includes('channel="sms"'));
    expect(line).toMatch(/outcome="not configured"/);
    expect(Number(line?.split(' ').at(-1))).toBeGreaterThanOrEqual(1);
  });

  it('counts the devices whose CONNACK is held while ingest is behind', async () => {
    // Ingest looks behind (a message waiting 10 s): nobody is admitted.
    const behind = vi.spyOn(ctx.app.ingest, 'oldestWaitMs').mockReturnValue(10_000);
    const held = [ctx.app.admission.admit(), ctx.app.admission.admit(), ctx.app.admission.admit()];
    try {
      expect(sample((await scrape(ctx.app, `Bearer ${TOKEN}`)).body, 'coldchain_mqtt_connects_waiting')).toBe(
        3,
      );
    } finally {
      behind.mockRestore();
    }
    // Caught up and idle: the allowance comes back and they are let in.
    await Promise.all(held);
    expect(sample((await scrape(ctx.app, `Bearer ${TOKEN}`)).body, 'coldchain_mqtt_connects_waiting')).toBe(
      0,
    );
  });

  it('counts the bound live sockets of this instance when scraped', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const socket = await ctx.app.injectWS('/api/ws');
    const bound = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ bindType: 2, bindContent: token }));
    await bound;
    expect(sample(await read(), 'coldchain_live_sockets')).toBe(1);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.terminate();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sample(await read(), 'coldchain_live_sockets')).toBe(0);
  });
});

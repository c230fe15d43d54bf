import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { createMailer } from '../notify/mailer';
import { createDeliveryWorker } from './delivery';
import { notificationsOf, raiseAlarm, startSlowSmtpSink } from './delivery-test-support';

/** Long enough for an SMTP handshake on a loaded machine; the server holds the first mail longer. */
const TIMEOUT_MS = 2_000;
const HOLD_MS = 5_000;

/**
 * An alarm e-mail whose send outlives the timeout is retried; the first send must not still arrive
 * beside the retry. The timeout closes the SMTP connection, so the held transaction is abandoned
 * and the server keeps one copy. (A real server that already has the whole message may still
 * deliver it when the client hangs up before its answer; then the two copies share a Message-ID:
 * docs/decisions.md, "An e-mail send that times out".)
 */
describe('alarm e-mail after a timeout', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const sinks: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const sink of sinks) await sink.close();
  });

  async function sendThroughSlowServer(stage: 'rcpt' | 'data') {
    const sink = await startSlowSmtpSink({ stage, delayMs: HOLD_MS });
    sinks.push(sink);
    const mailer = createMailer(sink.url, 'ColdChain <alarm@coldchain.test>')!;
    const config = {
      ...ctx.config,
      smtpUrl: sink.url,
      delivery: { ...ctx.config.delivery, httpTimeoutMs: TIMEOUT_MS, retryBaseMs: 1_000 },
    };
    // The worker's clock only schedules the retry; the SMTP timeout is the network's own.
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, config, mailer, ctx.app.log, () => new Date(now));
    const a = await raiseAlarm(ctx.app, ['email']);
    await worker.deliverDue();
    const [first] = await notificationsOf(ctx.app, a.record.id);
    expect(first).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(first!.lastError).toContain('timed out');
    // The server ends the held transaction: the client had gone by then.
    expect(await sink.firstDecided).toBe('client gone');
    now += 60_000;
    await worker.deliverDue();
    expect((await notificationsOf(ctx.app, a.record.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    mailer.close();
    return { sink, notificationId: first!.id };
  }

  it('the server holds its answer to RCPT past the timeout: the connection is closed, one mail arrives', async () => {
    const { sink, notificationId } = await sendThroughSlowServer('rcpt');
    expect(sink.accepted).toHaveLength(1);
    expect(sink.accepted[0]!.messageId).toBe(`<alarm-notification-${notificationId}@coldchain.alarm>`);
  }, 30_000);

  it('the server holds its answer to the end of DATA past the timeout: the client hangs up before the answer, the retry carries the same Message-ID', async () => {
    const { sink, notificationId } = await sendThroughSlowServer('data');
    expect(sink.accepted).toHaveLength(1);
    expect(sink.accepted[0]!.messageId).toBe(`<alarm-notification-${notificationId}@coldchain.alarm>`);
  }, 30_000);
});

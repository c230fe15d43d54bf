import { DEFAULT_COMPANY_SERVICES } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { startSmtpSink } from '../../test/smtp-sink';
import { authChanged } from '../auth/auth-changes';
import { companies } from '../companies/companies.table';
import { creditBalance } from './credits.service';
import { notificationsOf, raiseAlarm, startFakeTwilio } from './delivery-test-support';

const twilio = await startFakeTwilio();
const smtp = await startSmtpSink();
const SID = 'AC0123456789abcdef0123456789abcdef';

/**
 * Remote alarms are one supplier service per channel (issue 17 item 5): a channel switched off
 * sends nothing and costs nothing, the other channels go out; a rule cannot take an off channel.
 */
describe('remote alarm channels as services', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    smtpUrl: smtp.url,
    twilio: { baseUrl: twilio.url, accountSid: SID, authToken: 'secret-token', from: '+15550000001' },
  });
  afterAll(async () => {
    await twilio.close();
    await smtp.close();
  });

  const setServices = async (companyId: number, services: string[], expiry: Record<string, string> = {}) => {
    await ctx.app.db
      .update(companies)
      .set({ services, serviceExpiry: expiry })
      .where(eq(companies.id, companyId));
    authChanged({ companyId });
  };

  it('does not send a channel switched off after the rule was saved, and charges nothing for it', async () => {
    twilio.reset();
    const f = await raiseAlarm(ctx.app, ['email', 'sms'], { credit: 100 });
    // The supplier switches SMS off between the rule and the alarm's delivery.
    await setServices(
      f.company.id,
      DEFAULT_COMPANY_SERVICES.filter((s) => s !== 'service:alarmSms'),
    );
    await ctx.app.delivery.deliverDue();
    const rows = await notificationsOf(ctx.app, f.record.id);
    const statusOf = (channel: string) => rows.find((r) => r.channel === channel)?.status;
    expect(statusOf('sms')).toBe('service off');
    expect(statusOf('email')).toBe('sent');
    expect(twilio.requests.filter((r) => r.path.endsWith('/Messages.json'))).toHaveLength(0);
    // Only the e-mail cost a credit.
    expect(await creditBalance(ctx.app.db, f.company.id)).toBe(99);
  });

  it('treats a channel past its end as off, and refuses a rule naming an off channel', async () => {
    const f = await raiseAlarm(ctx.app, ['email'], { credit: 100 });
    const past = new Date(Date.now() - 60_000).toISOString();
    await setServices(f.company.id, [...DEFAULT_COMPANY_SERVICES], { 'service:alarmEmail': past });
    await ctx.app.delivery.deliverDue();
    const rows = await notificationsOf(ctx.app, f.record.id);
    expect(rows.map((r) => r.status)).toEqual(['service off']);
    expect(await creditBalance(ctx.app.db, f.company.id)).toBe(100);

    const refused = await f.save({ channels: ['email', 'sms'] }, 'cn');
    expect(refused.body.msgContent).toBe('暂无该服务或操作的权限');
    // With the channel on again, the same rule is taken.
    await setServices(f.company.id, [...DEFAULT_COMPANY_SERVICES]);
    expect((await f.save({ channels: ['email', 'sms'] })).body.msgCode).toBe(200);
  });
});

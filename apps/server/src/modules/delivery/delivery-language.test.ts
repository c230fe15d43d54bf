import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { type ReceivedMail, startSmtpSink } from '../../test/smtp-sink';
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { alarmRecords } from '../alarms/alarms.table';
import { users } from '../users/users.table';
import { creditCost, grantCredit } from './credits.service';
import { creditLedger } from './delivery.table';
import { startFakeTwilio } from './delivery-test-support';

const twilio = await startFakeTwilio();
const smtp = await startSmtpSink();
const SID = 'AC0123456789abcdef0123456789abcdef';

/** The decoded Subject header (nodemailer encodes non-ASCII subjects as RFC 2047 words). */
function subjectOf(mail: ReceivedMail): string {
  const line = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(mail.raw)![1]!;
  return line
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeURIComponent(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
    )
    .trim();
}

describe('alarm messages in the recipient language', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    smtpUrl: smtp.url,
    twilio: { baseUrl: twilio.url, accountSid: SID, authToken: 'secret-token', from: '+15550000001' },
  });
  afterAll(async () => {
    await twilio.close();
    await smtp.close();
  });
  beforeEach(() => twilio.reset());

  /** A company whose admin works in `language` (their console calls carry it) and one raised alarm. */
  async function alarmFor(language: 'cn' | 'en', phone: string) {
    const f = await alarmFixture(ctx.app, `Fridge ${phone.slice(-4)}`);
    await grantCredit(ctx.app.db, f.company.id, 100);
    await ctx.app.db.update(users).set({ phone }).where(eq(users.id, f.company.admin.id));
    // The console sends the header on every call; the first one after login is enough to store it.
    expect((await call(ctx.app, '/api/user/userInfo', {}, { ...f.as, language })).body.msgCode).toBe(200);
    expect((await f.save({ channels: ['email', 'sms'] }, language)).body.msgCode).toBe(200);
    const now = Date.now();
    await postReadings(ctx.app, f.device, [{ ts: now - 1000, v: 5 }]);
    await postReadings(ctx.app, f.device, [{ ts: now, v: 9.4 }]);
    await ctx.app.alarms.idle();
    const [record] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(f.device.id)));
    return { ...f, record: record! };
  }

  it('sends the e-mail and the SMS in Chinese to a user whose calls are in Chinese, in English to another', async () => {
    const chinese = await alarmFor('cn', '+8613800138001');
    const english = await alarmFor('en', '+8613800138002');
    const content = chinese.record.content as { cn: string; en: string };
    expect(content.cn).not.toBe(content.en);

    const mails: ReceivedMail[] = [];
    const both = Promise.all([smtp.nextMail(), smtp.nextMail()]).then((m) => mails.push(...m));
    await ctx.app.delivery.deliverDue();
    await both;

    const cnMail = mails.find((m) => m.to[0] === chinese.company.admin.email)!;
    expect(subjectOf(cnMail)).toBe('【ColdChain】报警（1级）');
    expect(cnMail.text).toContain(content.cn);
    expect(cnMail.text).toContain('报警时间：');
    expect(cnMail.text).not.toContain(content.en);
    const enMail = mails.find((m) => m.to[0] === english.company.admin.email)!;
    expect(subjectOf(enMail)).toBe('[ColdChain] Alarm (level 1)');
    expect(enMail.text).toContain((english.record.content as { en: string }).en);
    expect(enMail.text).toContain('Alarm time:');

    const smsTo = (phone: string) => twilio.requests.find((r) => r.form.To === phone)!.form.Body!;
    const cnSms = smsTo('+8613800138001');
    expect(cnSms).toBe(`【ColdChain】${content.cn}`);
    expect(smsTo('+8613800138002')).toBe(`[ColdChain] ${(english.record.content as { en: string }).en}`);

    // Credits count the text actually sent: the short Chinese SMS costs 1, its English twin would cost 2.
    expect(creditCost('sms', cnSms)).toBe(1);
    expect(creditCost('sms', `[ColdChain] ${content.en}`)).toBe(2);
    const smsDebits = (
      await ctx.app.db.select().from(creditLedger).where(eq(creditLedger.companyId, chinese.company.id))
    ).filter((l) => l.channel === 'sms');
    expect(smsDebits.map((l) => l.amount)).toEqual([-1]);
  });
});

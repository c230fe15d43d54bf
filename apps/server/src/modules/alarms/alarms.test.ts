import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { alarmFixture, postReadings, savedByTest } from './alarm-test-support';
import { alarmRecords, alarmSettings } from './alarms.table';

describe('alarm settings and records (routes)', () => {
  // Every test logs in; the login rate limit is not under test here.
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it('saves a setting and lists it for its sensor and its device', async () => {
    const f = await alarmFixture(ctx.app);
    const saved = await f.save({
      preMin: 3,
      preMax: 7,
      hysteresis: 0.5,
      delaySeconds: 120,
      repeat: 3,
      weekdays: [5, 1, 2],
      periods: [
        { start: '22:00', end: '06:00' },
        { start: '08:00', end: '12:00' },
      ],
    });
    expect(saved.body).toMatchObject({ msgCode: 200, data: { id: expect.any(String) } });
    for (const filter of [{ sensorId: String(f.sensor.id) }, { deviceId: f.device.id }]) {
      const { body } = await call<{ list: unknown[]; total: number }>(
        ctx.app,
        '/api/deviceAlarmRule/alarmList',
        filter,
        f.as,
      );
      // The device's default `abnormal` setting (alarm-default-settings.ts) comes first.
      expect(body.data.total).toBe(2);
      expect(body.data.list[0]).toMatchObject({
        carrier: 'device',
        alarmType: 'abnormal',
        min: null,
        max: null,
      });
      expect(body.data.list[1]).toMatchObject({
        id: saved.body.data.id,
        carrier: 'sensor',
        targetId: String(f.sensor.id),
        deviceId: f.device.id,
        min: 2,
        max: 8,
        preMin: 3,
        preMax: 7,
        hysteresis: 0.5,
        timeSlot: 'periods',
        weekdays: [1, 2, 5],
        notifierIds: [String(f.company.admin.id)],
        channels: ['email', 'sms'],
      });
    }
    // Editing replaces it, every stored field (arrays and JSON included); deleting removes it.
    const edited = await f.save({
      id: saved.body.data.id,
      max: 10,
      weekdays: [4, 3],
      periods: [{ start: '07:30', end: '19:00' }],
      timeZone: 'Asia/Shanghai',
      channels: ['email'],
      escalateAfterSeconds: 900,
      escalation: [{ level: 2, notifierIds: [String(f.company.admin.id)], channels: ['sms'] }],
    });
    expect(edited.body.data.id).toBe(saved.body.data.id);
    const [row] = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(saved.body.data.id)));
    expect(row).toMatchObject({
      max: 10,
      preMin: null,
      preMax: null,
      weekdays: [3, 4],
      periods: [{ start: '07:30', end: '19:00' }],
      allDay: false,
      timeZone: 'Asia/Shanghai',
      channels: ['email'],
      notifierIds: [f.company.admin.id],
      escalateAfterSeconds: 900,
      escalation: [{ level: 2, notifierIds: [f.company.admin.id], channels: ['sms'] }],
    });
    expect(row!.updatedAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());
    const deleted = await call(
      ctx.app,
      '/api/deviceAlarmRule/deleteAlarmSetting',
      { id: saved.body.data.id },
      f.as,
    );
    expect(deleted.body.msgCode).toBe(200);
    const { body } = await call<{ total: number }>(
      ctx.app,
      '/api/deviceAlarmRule/alarmList',
      { deviceId: f.device.id },
      f.as,
    );
    expect(body.data.total).toBe(1);
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.companyId, f.company.id))
      .orderBy(auditLog.seq);
    expect(audit.filter((a) => a.targetType === 'alarmSetting').map((a) => [a.action, a.userId])).toEqual([
      ['alarmSetting.create', f.company.admin.id],
      ['alarmSetting.edit', f.company.admin.id],
      ['alarmSetting.delete', f.company.admin.id],
    ]);
  });

  const rules: [string, Record<string, unknown>, string, string][] = [
    ['level below 1', { level: 0 }, 'Alarm level must be at least 1', '报警等级不能小于 1'],
    ['level above 3', { level: 4 }, 'Alarm level must be at most 3', '报警等级不能大于 3'],
    ['repeat below 1', { repeat: 0 }, 'Max alarm count must be at least 1', '最大报警次数不能小于 1'],
    ['repeat above 99', { repeat: 100 }, 'Max alarm count must be at most 99', '最大报警次数不能大于 99'],
    [
      'min not below max',
      { min: 8, max: 8 },
      'Upper limit must be greater than the minimum',
      '上限必须大于最小值',
    ],
    [
      'pre-alarm below min',
      { preMin: 1 },
      'The pre-alarm value must lie between the alarm minimum and maximum',
      '预警值必须介于报警下限和上限之间',
    ],
    [
      'pre-alarm above max',
      { preMax: 9 },
      'The pre-alarm value must lie between the alarm minimum and maximum',
      '预警值必须介于报警下限和上限之间',
    ],
    [
      'over-limit without limits',
      { min: undefined, max: undefined },
      'Upper limit: enter an upper or a lower limit',
      '上限：请至少填写上限或下限',
    ],
    [
      'hysteresis wider than the range',
      { hysteresis: 3 },
      'The hysteresis band leaves no safe range between the limits',
      '回差过大，上下限之间已无安全范围',
    ],
    [
      'overlapping periods',
      {
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      },
      'Repeated time point selected',
      '选择的时间点重复',
    ],
    [
      'the same period twice',
      {
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '08:00', end: '12:00' },
        ],
      },
      'Repeated time point selected',
      '选择的时间点重复',
    ],
    [
      'a period of no length',
      { periods: [{ start: '08:00', end: '08:00' }] },
      'Repeated time point selected',
      '选择的时间点重复',
    ],
    [
      'an overnight period overlapping a morning one',
      {
        periods: [
          { start: '22:00', end: '06:00' },
          { start: '05:00', end: '07:00' },
        ],
      },
      'Repeated time point selected',
      '选择的时间点重复',
    ],
    [
      'a malformed time point',
      { periods: [{ start: '25:00', end: '26:00' }] },
      'Period start: enter a time as HH:mm',
      '开始时间点：请按 HH:mm 格式填写时间',
    ],
    [
      'periods slot without periods',
      { timeSlot: 'periods' },
      'Select at least one alarm time period',
      '请至少选择一个报警时间段',
    ],
    ['weekday 8', { weekdays: [1, 8] }, 'Weekdays must be at most 7', '星期不能大于 7'],
    ['weekday twice', { weekdays: [1, 1] }, 'Weekdays contains a repeated item', '星期包含重复项'],
    [
      'an unknown channel',
      { channels: ['email', 'fax'] },
      'Notification channels is invalid',
      '通知方式格式不正确',
    ],
    [
      'a channel twice',
      { channels: ['sms', 'sms'] },
      'Notification channels contains a repeated item',
      '通知方式包含重复项',
    ],
    ['an unknown alarm type', { alarmType: 'smoke' }, 'Alarm type is invalid', '报警类型格式不正确'],
    ['an unknown carrier', { carrier: 'camera' }, 'Carrier is invalid', '载体格式不正确'],
    [
      'an unknown time zone',
      { timeZone: 'Mars/Olympus' },
      'Time zone is not a known time zone',
      '时区不是有效的时区',
    ],
    ['repeat missing', { repeat: undefined }, 'Max alarm count is required', '最大报警次数不能为空'],
    [
      'an escalation level twice',
      {
        escalation: [
          { level: 2, notifierIds: ['1'], channels: ['call'] },
          { level: 2, notifierIds: ['1'], channels: ['sms'] },
        ],
      },
      'Escalation levels contains a repeated item',
      '升级通知包含重复项',
    ],
  ];

  it.each(rules)('rejects %s, naming the rule in en and cn', async (_name, body, en, cn) => {
    const f = await alarmFixture(ctx.app);
    const english = await f.save(body, 'en');
    expect(english.body).toMatchObject({ msgCode: 500, msgContent: en, data: null });
    const chinese = await f.save(body, 'cn');
    expect(chinese.body).toMatchObject({ msgCode: 500, msgContent: cn });
    expect(
      await ctx.app.db
        .select()
        .from(alarmSettings)
        .where(and(eq(alarmSettings.companyId, f.company.id), savedByTest)),
    ).toHaveLength(0);
  });

  it('rejects notifiers outside the company and targets of another company as "not exist"', async () => {
    const f = await alarmFixture(ctx.app);
    const other = await alarmFixture(ctx.app);
    const stranger = await buildUser(ctx.app.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { notifierIds: [String(stranger.id)] },
        'A selected notifier is not a member of this company',
        '所选通知人不是本企业成员',
      ],
      [
        // Every escalation level's people too (alarm-escalation.ts).
        { escalation: [{ level: 3, notifierIds: [String(stranger.id)], channels: ['email'] }] },
        'A selected notifier is not a member of this company',
        '所选通知人不是本企业成员',
      ],
      [{ targetId: String(other.sensor.id) }, 'The sensor does not exist', '传感器不存在'],
      [{ carrier: 'device', targetId: other.device.id }, 'The device does not exist', '设备不存在'],
    ];
    for (const [body, en, cn] of cases) {
      expect((await f.save(body, 'en')).body).toMatchObject({ msgCode: 500, msgContent: en });
      expect((await f.save(body, 'cn')).body).toMatchObject({ msgCode: 500, msgContent: cn });
    }
    expect(
      await ctx.app.db
        .select()
        .from(alarmSettings)
        .where(and(eq(alarmSettings.companyId, f.company.id), savedByTest)),
    ).toHaveLength(0);
  });

  /** A company with one over-limit alarm raised through ingest. */
  async function withAlarm() {
    const f = await alarmFixture(ctx.app);
    await f.save({});
    await postReadings(ctx.app, f.device, [{ ts: Date.now(), v: 9.4 }]);
    await ctx.app.alarms.idle();
    const [record] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.companyId, f.company.id));
    return { ...f, alarmId: String(record!.id) };
  }

  it('edits a rule while its device reports, raising and ending alarms, without a deadlock', async () => {
    // On PostgreSQL a rule edit and ingest's alarm pass touch the same rows (the device, its
    // alarm states and open alarms); taken in opposite orders they deadlock, and one side fails.
    const f = await alarmFixture(ctx.app);
    const created = await f.save({});
    const start = Date.now() - 60_000;
    const [edits, posts] = await Promise.all([
      Promise.all(
        Array.from({ length: 12 }, (_, i) => f.save({ id: created.body.data.id, max: 8 + (i % 2) })),
      ),
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          postReadings(ctx.app, f.device, [{ ts: start + i * 1000, v: i % 2 === 0 ? 9.4 : 5 }]),
        ),
      ),
    ]);
    expect(edits.map((e) => e.body.msgContent)).toEqual(edits.map(() => 'success'));
    expect(posts.map((p) => p.statusCode)).toEqual(posts.map(() => 200));
    await ctx.app.alarms.idle();
  });

  it('pages, shows and resolves an alarm with resolver and time; a second resolve is refused clearly', async () => {
    const f = await withAlarm();
    const page = await call<{ list: { id: string }[]; total: number; pageNum: number; pageSize: number }>(
      ctx.app,
      '/api/alarm/pageAlarms',
      { pageNum: 1, pageSize: 10, resolveState: 1, alarmType: 'overLimit', deviceId: f.device.id },
      f.as,
    );
    expect(page.body.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 10, list: [{ id: f.alarmId }] });
    for (const filter of [
      { resolveState: 3 },
      { alarmType: 'offline' },
      { startTime: Date.now() + 60_000 },
    ]) {
      const { body } = await call<{ total: number }>(ctx.app, '/api/alarm/pageAlarms', filter, f.as);
      expect(body.data.total, JSON.stringify(filter)).toBe(0);
    }
    const detail = await call(ctx.app, '/api/alarm/alarmDetail', { id: f.alarmId }, f.as);
    expect(detail.body.data).toMatchObject({
      id: f.alarmId,
      deviceSerial: f.device.serial,
      alarmType: 'overLimit',
      resolveState: 1,
      resolverName: null,
    });

    const before = Date.now();
    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: f.alarmId, resolveType: 'handled', cause: 'Door open', action: 'Closed it' },
      f.as,
    );
    expect(resolved.body.data).toMatchObject({
      resolveState: 3,
      resolverId: String(f.company.admin.id),
      resolverName: 'Company Admin',
      resolveType: 'handled',
      cause: 'Door open',
      action: 'Closed it',
    });
    expect((resolved.body.data as { resolveTime: number }).resolveTime).toBeGreaterThanOrEqual(before - 1000);
    // The list and the detail name the resolver, not only the id.
    const afterDetail = await call(ctx.app, '/api/alarm/alarmDetail', { id: f.alarmId }, f.as);
    expect(afterDetail.body.data).toMatchObject({ resolverName: 'Company Admin' });
    // The answer is built from the alarm as found and what resolving wrote, not read again: it
    // says what a fresh read says.
    expect(afterDetail.body.data).toMatchObject(resolved.body.data as object);
    const afterPage = await call<{ list: { id: string; resolverName: string | null }[] }>(
      ctx.app,
      '/api/alarm/pageAlarms',
      { pageNum: 1, pageSize: 10 },
      f.as,
    );
    expect(afterPage.body.data.list.find((a) => a.id === f.alarmId)?.resolverName).toBe('Company Admin');
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'alarm.resolve'))
      .orderBy(auditLog.id);
    expect(entry).toMatchObject({
      companyId: f.company.id,
      userId: f.company.admin.id,
      targetId: f.alarmId,
      after: { resolveState: 3, cause: 'Door open', action: 'Closed it' },
    });

    for (const [language, text] of [
      ['en', 'This alarm has already been resolved'],
      ['cn', '该报警已处理，无需重复处理'],
    ] as const) {
      const again = await call(
        ctx.app,
        '/api/alarm/resolveAlarm',
        { id: f.alarmId, resolveType: 'other', cause: 'x' },
        { ...f.as, language },
      );
      expect(again.body).toMatchObject({ msgCode: 500, msgContent: text });
    }
    const missingCause = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: f.alarmId, resolveType: 'x' },
      { ...f.as, language: 'cn' },
    );
    expect(missingCause.body).toMatchObject({ msgCode: 500, msgContent: '原因不能为空' });
  });

  it('another company sees no alarm, cannot resolve or delete, and nothing changes', async () => {
    const f = await withAlarm();
    const other = await alarmFixture(ctx.app);
    const settingId = String(
      (
        await ctx.app.db
          .select()
          .from(alarmSettings)
          .where(and(eq(alarmSettings.companyId, f.company.id), savedByTest))
      )[0]!.id,
    );
    const detail = await call(ctx.app, '/api/alarm/alarmDetail', { id: f.alarmId }, other.as);
    expect(detail.body).toMatchObject({ msgCode: 500, msgContent: 'The alarm does not exist', data: null });
    const resolve = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: f.alarmId, resolveType: 'x', cause: 'y' },
      { ...other.as, language: 'cn' },
    );
    expect(resolve.body).toMatchObject({ msgCode: 500, msgContent: '报警记录不存在' });
    const del = await call(ctx.app, '/api/deviceAlarmRule/deleteAlarmSetting', { id: settingId }, other.as);
    expect(del.body).toMatchObject({ msgCode: 500, msgContent: 'The alarm setting does not exist' });
    const edit = await other.save({ id: settingId });
    expect(edit.body).toMatchObject({ msgCode: 500, msgContent: 'The alarm setting does not exist' });
    const page = await call<{ total: number }>(
      ctx.app,
      '/api/alarm/pageAlarms',
      { deviceId: f.device.id },
      other.as,
    );
    expect(page.body.data.total).toBe(0);
    const list = await call<{ total: number }>(
      ctx.app,
      '/api/deviceAlarmRule/alarmList',
      { deviceId: f.device.id },
      other.as,
    );
    expect(list.body.data.total).toBe(0);

    const [record] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.id, Number(f.alarmId)));
    expect(record).toMatchObject({ resolveState: 1, resolverId: null });
    expect(
      await ctx.app.db
        .select()
        .from(alarmSettings)
        .where(eq(alarmSettings.id, Number(settingId))),
    ).toHaveLength(1);
  });

  it('needs alarm:view, alarm:edit and alarm:resolve (a member without roles has none)', async () => {
    const f = await withAlarm();
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.company.id, member.id);
    const as = { token: await login(ctx.app, member.account), companyId: f.company.id };
    for (const [url, body] of [
      ['/api/alarm/pageAlarms', {}],
      ['/api/alarm/alarmDetail', { id: f.alarmId }],
      ['/api/alarm/resolveAlarm', { id: f.alarmId, resolveType: 'x', cause: 'y' }],
      ['/api/deviceAlarmRule/alarmList', { deviceId: f.device.id }],
      [
        '/api/deviceAlarmRule/saveAlarmSetting',
        {
          carrier: 'device',
          targetId: f.device.id,
          level: 1,
          alarmType: 'offline',
          repeat: 1,
          channels: [],
          notifierIds: [],
        },
      ],
    ] as const) {
      const { body: reply } = await call(ctx.app, url, body, as);
      expect(reply, url).toMatchObject({
        msgCode: 500,
        msgContent: 'No permission for this service or operation',
      });
    }
  });
});

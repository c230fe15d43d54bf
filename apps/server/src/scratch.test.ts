import { eq, getTableColumns, sql } from 'drizzle-orm';
import { describe, it } from 'vitest';
import { alarmRecords, alarmSettings } from './modules/alarms/alarms.table';
import { devices } from './modules/devices/devices.table';
import { useTestApp } from './test/build-app';

describe('x', () => {
  const ctx = useTestApp();
  it('prints', async () => {
    const q = ctx.app.db;
    const rule = q.$with('rule').as(
      q
        .select({
          ...getTableColumns(alarmSettings),
          hasOpenAlarm:
            sql<boolean>`exists (select 1 from ${alarmRecords} r where r.setting_id = "alarm_settings"."id" and r.end_time is null)`.as(
              'has_open_alarm',
            ),
          version: sql<string>`"alarm_settings".xmin::text`.as('version'),
        })
        .from(alarmSettings)
        .where(eq(alarmSettings.id, sql.placeholder('id')))
        .limit(1)
        .for('no key update'),
    );
    const query = q
      .with(rule)
      .select({
        ...rule._.selectedFields,
        devicesLocked: sql<number>`(select count(*) from (select 1 from ${devices} d
          where d.id in ("rule"."device_id", ${sql.placeholder('newDeviceId')}::bigint) order by d.id for no key update) l)`,
      })
      .from(rule);
    console.log(query.toSQL().sql);
    console.log(JSON.stringify(await query.prepare('').execute({ id: 1, newDeviceId: 1 })));
  });
});

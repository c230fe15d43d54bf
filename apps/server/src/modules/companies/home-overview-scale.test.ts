import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resolveAuth } from '../../plugins/auth';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { genericPlanOf } from '../../test/generic-plan';
import { sentStatementsOf } from '../../test/statement-log';
import { companyDataInfo } from './home-overview';

/** Alarms of a long history, all resolved but every PENDING_EVERY-th. */
const HISTORY = 3_000;
const PENDING_EVERY = 1_000;

describe('the home figures of a company with a long alarm history', () => {
  const ctx = useTestApp();

  it('counts the pending alarms through their own index, not through the whole history', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    await ctx.app.db.execute(
      sql`insert into alarm_records (company_id, device_id, sensor_id, alarm_type, level, alarm_time,
            excursion_start, dedupe_key, content, count, last_value, resolve_state, end_time)
          select ${company.id}, ${Number(device.id)}, ${device.sensors[0]!.id}, 'overLimit', 1,
                 now() - make_interval(days => g), now() - make_interval(days => g),
                 'history:' || ${device.serial}::text || ':' || g, '{}'::jsonb, 1, 1,
                 case when g % ${PENDING_EVERY} = 0 then 1 else 3 end, now() - make_interval(days => g)
          from generate_series(1, ${HISTORY}) g`,
    );
    await ctx.app.db.execute(sql`analyze alarm_records`);
    const auth = await resolveAuth(
      ctx.app.db,
      await login(ctx.app, company.admin.account),
      undefined,
      60_000,
    );

    let figures: Awaited<ReturnType<typeof companyDataInfo>> | undefined;
    const [statement] = await sentStatementsOf(ctx.app.db, async () => {
      figures = await companyDataInfo(ctx.app.db, auth);
    });
    expect(figures?.pendingAlarms).toBe(HISTORY / PENDING_EVERY);
    const plan = await genericPlanOf(ctx.app.db, statement!);
    // Without it: a scan of the company's alarms (or of their company index) filtered on the state.
    expect(plan).toContain('alarm_records_pending_idx');
  });
});

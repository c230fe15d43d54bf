import type { ReportTaskView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { useTwoInstances } from '../../test/two-instances';
import { manualClock } from '../alarms/alarm-test-support';
import { reportRuns } from '../report-tasks/report-tasks.table';
import { enqueueJob } from './job-queue';
import { jobs } from './jobs.table';

/**
 * Two server instances on one PostgreSQL database (a fresh one on the local server, whatever the
 * rest of the suite runs on), both draining the queue at the same moment: every due job runs
 * once, and a backup task's occurrence makes one run.
 */
describe('job queue across two instances on PostgreSQL', () => {
  const clock = manualClock(Date.parse('2026-06-10T12:00:00Z'));
  const two = useTwoInstances({ clock: clock.read });

  it('runs each due job once when both instances drain together', async () => {
    expect(two.appA.database.kind).toBe('postgres');
    const ranBy = new Map<number, string[]>();
    for (const [app, name] of [
      [two.appA, 'A'],
      [two.appB, 'B'],
    ] as const) {
      app.jobs.handle('test.once', async (job) => {
        ranBy.set(job.id, [...(ranBy.get(job.id) ?? []), name]);
        // Long enough that the other instance looks for work while this job is held.
        await new Promise((r) => setTimeout(r, 20));
      });
    }
    const ids: number[] = [];
    for (let i = 0; i < 30; i++)
      ids.push((await enqueueJob(two.appA.db, 'test.once', { i }, { runAt: clock.read() }))!);
    await Promise.all([
      two.appA.jobs.runDue(),
      two.appB.jobs.runDue(),
      two.appA.jobs.runDue(),
      two.appB.jobs.runDue(),
    ]);
    expect([...ranBy.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...ranBy.values()].every((by) => by.length === 1)).toBe(true);
    const owners = new Set([...ranBy.values()].flat());
    expect(owners).toEqual(new Set(['A', 'B']));
    const rows = await two.appA.db.select().from(jobs).where(eq(jobs.kind, 'test.once'));
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
  });

  it("makes one run of a backup task's due occurrence across both instances", async () => {
    const company = await buildCompany(two.appA.db, {
      name: 'Two instances',
      services: ['service:dataBackup'],
    });
    const token = await login(two.appA, company.admin.account);
    const saved = await call<{ id: string }>(
      two.appA,
      '/api/report/saveTask',
      { name: 'Audit', type: 'audit', frequency: 'daily', format: 'csv', emails: ['a@example.com'] },
      { token },
    );
    expect(saved.body.msgCode).toBe(200);
    const page = await call<{ list: ReportTaskView[] }>(two.appB, '/api/report/pageTasks', {}, { token });
    clock.set(page.body.data.list[0]!.nextRunTime + 1);
    await Promise.all([two.appA.jobs.runDue(), two.appB.jobs.runDue()]);
    await Promise.all([two.appA.jobs.runDue(), two.appB.jobs.runDue()]);
    const runs = await two.appA.db
      .select()
      .from(reportRuns)
      .where(eq(reportRuns.taskId, Number(saved.body.data.id)));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('done');
  });
});

import type { ExportProgressView } from '@coldchain/contract';
import { describe, expect, it, vi } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { exportProgressOf, reportExportRows, trackExport } from './export-progress.service';

/*
 * Progress of long exports (issue 15 item 4): the row the export writer moves forward, the call
 * the waiting dialog polls, and who may read it.
 */

describe('export progress', () => {
  const ctx = useTestApp();
  const START = Date.UTC(2026, 0, 1);

  it('goes from reading to writing with the rows written, then done', async () => {
    const db = ctx.app.db;
    const user = await buildUser(db);
    const seen: ExportProgressView[] = [];
    const result = await trackExport(db, user.id, 'progress-1', async () => {
      seen.push(await exportProgressOf(db, user.id, 'progress-1'));
      reportExportRows(4, 10);
      await vi.waitFor(async () =>
        expect(await exportProgressOf(db, user.id, 'progress-1')).toEqual({
          phase: 'writing',
          done: 4,
          total: 10,
        }),
      );
      reportExportRows(10, 10);
      return 'the file';
    });
    expect(result).toBe('the file');
    expect(seen).toEqual([{ phase: 'reading', done: 0, total: 0 }]);
    expect(await exportProgressOf(db, user.id, 'progress-1')).toEqual({ phase: 'done', done: 10, total: 10 });
  });

  it('marks a failed export failed and still throws its error', async () => {
    const db = ctx.app.db;
    const user = await buildUser(db);
    await expect(
      trackExport(db, user.id, 'progress-2', async () => {
        reportExportRows(3, 9);
        throw new Error('too large');
      }),
    ).rejects.toThrow('too large');
    expect((await exportProgressOf(db, user.id, 'progress-2')).phase).toBe('failed');
  });

  it('writes nothing without a progress id, and rows reported outside an export go nowhere', async () => {
    const db = ctx.app.db;
    const user = await buildUser(db);
    reportExportRows(1, 1);
    expect(await trackExport(db, user.id, undefined, async () => 7)).toBe(7);
    expect(await exportProgressOf(db, user.id, 'anything')).toEqual({ phase: 'unknown', done: 0, total: 0 });
  });

  it('tracks a real device-data export through the call, for its own user only', async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    const token = await login(ctx.app, company.admin.account);
    const other = await buildUser(db);
    await addMember(db, company.id, other.id);
    const otherToken = await login(ctx.app, other.account);
    const device = await buildDevice(db, company.id, {});
    const sensor = device.sensors[0]!;
    const count = 12_000;
    await db.insert(readings).values(
      Array.from({ length: count }, (_, i) => ({
        sensorId: sensor.id,
        ts: new Date(START + i * 60_000),
        value: i % 50,
      })),
    );
    const progressId = 'a1b2c3d4-e5f6';
    const exporting = ctx.app.inject({
      method: 'POST',
      url: '/api/device/exportData',
      headers: { 'content-type': 'application/json', platform: '1', accessToken: token },
      payload: JSON.stringify({
        deviceIds: [String(device.id)],
        startTime: START,
        endTime: START + 10 * 86_400_000,
        format: 'xlsx',
        progressId,
      }),
    });
    // What the dialog would see while it waits: phases only move forward.
    const order = ['unknown', 'reading', 'writing', 'done'];
    const phases: string[] = [];
    let finished = false;
    void exporting.finally(() => {
      finished = true;
    });
    while (!finished) {
      const { body } = await call<ExportProgressView>(
        ctx.app,
        '/api/export/progress',
        { progressId },
        { token },
      );
      phases.push(body.data.phase);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await exporting).statusCode).toBe(200);
    const ranks = phases.map((p) => order.indexOf(p));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

    const after = await call<ExportProgressView>(ctx.app, '/api/export/progress', { progressId }, { token });
    expect(after.body.data).toEqual({ phase: 'done', done: count, total: count });
    // Another user of the same company asking with the same id learns nothing.
    const foreign = await call<ExportProgressView>(
      ctx.app,
      '/api/export/progress',
      { progressId },
      { token: otherToken },
    );
    expect(foreign.body.data).toEqual({ phase: 'unknown', done: 0, total: 0 });
  });

  it('names the field when the id is malformed, in the caller language', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const en = await call(ctx.app, '/api/export/progress', { progressId: 'bad id!' }, { token });
    expect(en.body.msgCode).toBe(500);
    expect(en.body.msgContent).toBe('Export progress ID must be 8 to 64 letters, digits or dashes');
    const cn = await call(ctx.app, '/api/export/progress', { progressId: 'x' }, { token, language: 'cn' });
    expect(cn.body.msgContent).toBe('导出进度编号必须是 8 到 64 位字母、数字或短横线');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { runsAlone } from '../db/one-session';
import { alarmRecords, alarmSettings } from '../modules/alarms/alarms.table';
import { call, useTestApp } from './build-app';
import { buildCompany, buildDepartment, buildDevice, login } from './factories';
import { everyStatementOf } from './statement-log';

/** The caller's authentication (plugins/auth.ts), when it is not answered from its cache. */
const CALLER = /json_build_object\(\s*'sessionId'/;
/** BEGIN, COMMIT and ROLLBACK: sent by drizzle on PostgreSQL; by the embedded client itself, and written by statement-log.ts. */
const TRANSACTION_EDGE = /^\s*(begin|commit|rollback)\b/i;

/**
 * What each benchmarked write sends to the database beyond the caller's authentication (docs/
 * performance.md, "Audited writes"): a write costs about a statement's worth of CPU per
 * statement, so a statement added to one fails here. The ordering locks are sent on PostgreSQL
 * only (db/one-session.ts).
 */
describe('statements per write', () => {
  const ctx = useTestApp();
  let token: string;
  let device: Awaited<ReturnType<typeof buildDevice>>;
  let departmentId: string;
  let settingId: string;
  let alarmId: string;
  let adminId: string;

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    const pharmacy = await buildDepartment(db, company.id, { name: 'Pharmacy' });
    departmentId = String(pharmacy.id);
    device = await buildDevice(db, company.id, { departmentId: pharmacy.id });
    const sensorId = device.sensors[0]!.id;
    const [setting] = await db
      .insert(alarmSettings)
      .values({
        companyId: company.id,
        carrier: 'sensor',
        targetId: sensorId,
        deviceId: Number(device.id),
        sensorId,
        level: 1,
        alarmType: 'overLimit',
        max: 8,
        repeat: 1,
      })
      .returning();
    settingId = String(setting!.id);
    const [alarm] = await db
      .insert(alarmRecords)
      .values({
        companyId: company.id,
        deviceId: Number(device.id),
        sensorId,
        // Not the rule's: the rule's save below would end it (and audit that), a case of its own.
        settingId: null,
        alarmType: 'overLimit',
        level: 1,
        alarmTime: new Date(),
        excursionStart: new Date(),
        dedupeKey: 'write-statements',
        content: { en: 'Too warm', cn: '温度过高' },
        lastValue: 9,
      })
      .returning();
    alarmId = String(alarm!.id);
    adminId = String(company.admin.id);
    token = await login(ctx.app, company.admin.account);
  });

  /** The statements of one call, without the transaction's edges (counted apart), and its answer's code. */
  async function sent(path: string, body: Record<string, unknown>) {
    const { result, statements } = await everyStatementOf(ctx.app.db, () =>
      call(ctx.app, path, body, { token }),
    );
    expect(result.body.msgContent, path).toBe('success');
    lastEdges = statements.filter((s) => TRANSACTION_EDGE.test(s)).length;
    return statements.filter((s) => !TRANSACTION_EDGE.test(s) && !CALLER.test(s));
  }
  /** How many BEGIN, COMMIT and ROLLBACK the last call of `sent` sent. */
  let lastEdges = 0;
  /** The audit chain's lock and the rows locked before a change, nothing else read. */
  const locks = (statements: string[]) =>
    statements.filter((s) => s.includes('pg_advisory_xact_lock') || /^\s*select 1 from "\w+"/.test(s));

  it('edits a device in one statement, its department and group kept', async () => {
    const statements = await sent('/api/device/editDevice', {
      id: device.id,
      name: 'Fridge 2B',
      departmentId,
      groupId: null,
      recordInterval: 60,
      uploadInterval: 300,
      alarmVerifyInterval: 120,
      offlineJudgement: 3,
    });
    // The device's read (in the company, the place sent its own), update, audit append and answer
    // in one, a transaction of its own on either database (the chain's head orders it on PostgreSQL).
    expect(statements).toHaveLength(1);
    expect(locks(statements)).toHaveLength(0);
    expect(lastEdges).toBe(0);
  });

  it('saves a rule in three statements, no alarm of it open, with no transaction on the embedded database', async () => {
    const statements = await sent('/api/deviceAlarmRule/saveAlarmSetting', {
      id: settingId,
      carrier: 'sensor',
      targetId: String(device.sensors[0]!.id),
      level: 2,
      alarmType: 'overLimit',
      max: 9,
      repeat: 1,
      channels: ['sms', 'email'],
      notifierIds: [adminId],
    });
    // The sensor in scope with its device's tier (a remote channel) and the notifiers' membership
    // in one, and the rule (its version, and whether an alarm of it is open) beside it; then its update,
    // its states' delete, the device's state and the audit append in one, a transaction of its own
    // on the embedded database. On PostgreSQL the rule is read in a transaction, locked and its
    // devices locked after it in the same statement (alarm-setting-quick-edit.ts, `settingQuery`).
    const alone = runsAlone(ctx.app.db);
    expect(statements).toHaveLength(3);
    expect(locks(statements)).toHaveLength(0);
    const lockingTwice = statements.filter((s) => s.match(/for no key update/g)?.length === 2);
    expect(lockingTwice).toHaveLength(alone ? 0 : 1);
    expect(lastEdges).toBe(alone ? 0 : 2);
  });

  it('resolves an alarm in one statement', async () => {
    const statements = await sent('/api/alarm/resolveAlarm', {
      id: alarmId,
      resolveType: 'handled',
      cause: 'Door open',
    });
    // The company's signature policy (none asked), the alarm's read (locked on PostgreSQL), update,
    // audit entry and answer in one, a transaction of its own on either database.
    expect(statements).toHaveLength(1);
    expect(locks(statements)).toHaveLength(0);
    expect(lastEdges).toBe(0);
  });
});

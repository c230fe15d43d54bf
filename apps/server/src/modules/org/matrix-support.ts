import { createHash } from 'node:crypto';
import { AuthTags, ServiceAuthTags } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { recordAudit } from '../audit/audit.service';
import { buildNotification } from '../billing/credits-test-support';
import { cameraDevices, cameraPlatformAccounts, cameras } from '../camera/camera.table';
import { companies } from '../companies/companies.table';
import { grantCredit, reserveCredit } from '../delivery/credits.service';
import { sensors } from '../devices/devices.table';
import { equipment, equipmentTypes, patrolPlans } from '../equipment/equipment.table';
import { deviceGroups } from '../groups/groups.table';
import { logisticsAddresses } from '../logistics/addresses.table';
import { logisticsDeliveries, logisticsDeliveryDevices } from '../logistics/deliveries.table';
import { notices } from '../notices/notices.table';
import { openApiKeyDevices, openApiKeys, openApiUsage } from '../open-api/open-api.table';
import { dockingPlatforms, platformDockings } from '../platform-docking/platform-docking.table';
import { pushBindings, pushDeliveries, pushUrls } from '../push-docking/push-docking.table';
import { reportFiles } from '../reports/report-files.table';
import { users } from '../users/users.table';
import { insertAdminRole } from './company-setup';
import { departments, devicePermissions, invitations, joinRequests } from './org.table';

/*
 * Shared by the two generated matrices (permission-matrix.test.ts, cross-company-matrix.test.ts):
 * a company with one of everything, a digest of everything a company owns, and request bodies
 * built from each route's own zod schema with the ids of such a company.
 */

/**
 * Calls of the route table that need no login. A new public call must be added here on purpose;
 * the permission matrix fails for any public call that is not listed.
 */
export const PUBLIC_CALLS: ReadonlySet<string> = new Set([
  'POST /api/system/clientConfig',
  'POST /api/doLogin',
  'POST /api/doLoginCode',
  // The data-screen ticket: the ticket itself is the credential (auth/ticket-login.service.ts).
  'POST /api/datav/redeemTicket',
  'POST /api/getInternationalAreaCode',
  'POST /api/qrLogin/createTicket',
  'POST /api/qrLogin/pollTicket',
  'POST /api/sendCode',
  'POST /api/verifyAccount',
  'POST /api/getAccountCode',
  'POST /api/checkCode',
  'POST /api/resetPassword',
  'POST /api/register/getPhoneCode',
  'POST /api/register/registerAccount',
  'POST /api/user/industryList',
  'POST /api/userOrganize/getOrganizeInviteById',
  // The live socket: the bind message carries the token (live.routes.ts).
  'GET /api/ws',
  // The payment provider's webhook: the Stripe-Signature over the raw body is the credential.
  'POST /api/payment/webhook',
  // Receipt links (modules/logistics): the link's expiring token is the credential, and it opens
  // one delivery order's window only.
  'POST /api/logistics/linkReceipt',
  'POST /api/logistics/linkReceive',
  'POST /api/logistics/linkPhoto',
  'POST /api/logistics/linkDeliveryNote',
  // The demo camera's clip (a test pattern) and an alarm e-mail's picture link, whose sealed
  // token is the credential (modules/camera).
  'GET /api/camera/demo/:name',
  'GET /api/camera/alarmPicture/:token',
]);

/**
 * Calls any signed-in member may make whatever their role, each with the reason. Every other
 * `/api` call must declare its tag with `requirePermission`, or the permission matrix fails:
 * a new call has to choose one or the other.
 */
export const ANY_MEMBER_CALLS: ReadonlyMap<string, string> = new Map([
  // One's own account, session and settings: they belong to the person, not to a role.
  ['POST /api/logout', 'own session'],
  ['POST /api/loginCode/createAddressCode', 'own account'],
  ['POST /api/user/updatePassword', 'own account'],
  ['POST /api/qrLogin/scanTicket', 'own session: confirms a QR login on another screen'],
  ['POST /api/qrLogin/confirmTicket', 'own session'],
  ['POST /api/loginSecurity/getPasswordRenewal', 'own account'],
  ['POST /api/loginSecurity/setPasswordRenewal', 'own account'],
  ['POST /api/company/getAuditSignature', 'the signature policy that applies to the caller'],
  ['POST /api/company/setAuditSignature', 'company administrators only, checked in the call'],
  ['POST /api/personnel/setExportExcel', 'company administrators only, checked in the call'],
  ['POST /api/user/userInfo', 'own account'],
  ['POST /api/user/personalInfo', 'own account'],
  ['POST /api/export/progress', 'own exports only: the export call itself was checked'],
  ['POST /api/user/updateUserInfo', 'own account'],
  ['POST /api/register/modifyInformation', 'own account: completes it after registering'],
  ['POST /api/user/setSignPassword', 'own account'],
  ['POST /api/user/checkSignPassword', 'own account'],
  ['POST /api/user/getWeChatPublicAttentionUrl', 'own account'],
  ['POST /api/user/bindWeChat', 'own account'],
  ['POST /api/user/weChatFollowStatus', 'own account'],
  ['POST /api/user/unbindWeChat', 'own account'],
  ['POST /api/user/unbindWeChatOfficial', 'own account'],
  ['POST /api/user/checkPhoneBinding', 'own account'],
  ['POST /api/user/getUserAddress', 'own account'],
  ['POST /api/user/newUserNotice', 'own notices'],
  ['POST /api/user/userNoticeList', 'own notices'],
  ['POST /api/user/readNotice', 'own notices'],
  ['POST /api/user/readNoticeAll', 'own notices'],
  ['POST /api/user/deleteNotice', 'own notices'],
  ['POST /api/userLoginLog/pageUserLog', 'own login attempts (docs/decisions.md)'],
  ['POST /api/userLoginLog/exportUserLog', 'own login attempts'],
  ['POST /api/user/addFeedback', 'anyone may send feedback'],
  ['POST /api/user/pageFeedback', 'own feedback only'],
  ['POST /api/file/upload', 'stores a file only; the call that uses it checks its own tag'],
  ['POST /api/device/addCalibrationImg', 'stores a file only, like /api/file/upload'],
  // Companies and memberships of the person.
  ['POST /api/index/getUserCompanys', 'own memberships'],
  ['POST /api/index/switchUserCompany', 'own memberships'],
  ['POST /api/index/getUserPowers', 'own rights: the console builds its menus from them'],
  ['POST /api/user/createCompany', 'anyone may found a company'],
  ['POST /api/user/dropOutOrganize', 'own membership'],
  ['POST /api/user/joinOrganize', 'applying to join is open to everyone'],
  ['POST /api/register/joinOrganization', 'applying to join is open to everyone'],
  ['POST /api/userOrganize/inviteJoinOrganize', 'joining through an invitation link'],
  // Everyone holds home:view: the home page and what every member needs.
  ['POST /api/userOrganize/companyDataInfo', 'home page (home:view, held by every member)'],
  ['POST /api/userOrganize/indexChartForStatistics', 'home page (home:view, held by every member)'],
  ['POST /api/userOrganize/myDepartment', 'own department'],
  ['POST /api/personnel/memberOptions', 'names for notifier and leader pickers, within the scope'],
  // No tag expresses these: the handler checks who the caller is.
  ['POST /api/user/changeOrganizeName', 'company administrator only, checked in the handler'],
  ['POST /api/userOrganize/createInvite', 'checked in the handler (invitations.service.ts)'],
  ['POST /api/user/joinRequestList', 'user:edit or person in charge, checked in the preHandler'],
  ['POST /api/user/incomingAudit', 'user:edit or person in charge, checked in the preHandler'],
]);

/** Calls that end the caller's own session: the matrices must not log their own caller out. */
export const SESSION_ENDING_CALLS: ReadonlySet<string> = new Set(['POST /api/logout']);

export interface CompanyIds {
  companyId: number;
  rootDepartmentId: number;
  departmentId: number;
  departmentCode: string;
  adminRoleId: number;
  roleId: number;
  userId: number;
  adminUserId: number;
  deviceId: number;
  sensorId: number;
  groupId: number;
  settingId: number;
  alarmId: number;
  noticeId: number;
  joinRequestId: number;
  inviteCode: string;
  equipmentTypeId: number;
  equipmentId: number;
  patrolPlanId: number;
  /** The fingerprint of a generated report of the company (modules/reports). */
  reportFingerprint: string;
  /** An open-API key of the company, opened to its device, with a call in its usage log. */
  openApiKeyId: number;
  /** A push address of the company, bound to its device, with a delivery (modules/push-docking). */
  pushUrlId: number;
  /** A logistics address of the company, its name and contact carrying the marker (modules/logistics). */
  logisticsAddressId: number;
  /** A second address, the receiver of the company's delivery order (modules/logistics). */
  logisticsReceiverAddressId: number;
  /** A delivery order of the company, in transit with its device, goods carrying the marker. */
  logisticsDeliveryId: number;
  /** A direct-stream platform account and its camera watching the device, names carrying the marker (modules/camera). */
  cameraAccountId: number;
  cameraId: number;
  /** An enabled platform docking of the company, its reason carrying the marker (modules/platform-docking). */
  platformDockingId: number;
}

/**
 * A company with one of everything, every name carrying `marker`: a department with its
 * administrator role and another role, a member, a device with a sensor in a group, an alarm
 * setting and record, a device grant, a notice, an invitation, a join request and audit entries.
 */
export async function buildCompanyWithEverything(app: FastifyInstance, marker: string): Promise<CompanyIds> {
  const db = app.db;
  const company = await buildCompany(db, { name: `${marker} Co`, services: [...ServiceAuthTags] });
  await db
    .update(users)
    .set({ name: `${marker} admin` })
    .where(eq(users.id, company.admin.id));
  await db
    .update(companies)
    .set({ address: `${marker} street` })
    .where(eq(companies.id, company.id));
  const [root] = await db.select().from(departments).where(eq(departments.companyId, company.id));
  const department = await buildDepartment(db, company.id, { name: `${marker} dept` });
  const adminRoleId = await insertAdminRole(db, company.id, department.id, AuthTags);
  const role = await buildRole(db, company.id, department.id, ['device:view', 'alarm:view'], {
    name: `${marker} role`,
  });
  const member = await buildUser(db, { name: `${marker} person` });
  await db.update(users).set({ phone: '+8613900000000' }).where(eq(users.id, member.id));
  await addMember(db, company.id, member.id, false, { departmentId: department.id, roleId: role.id });
  const [group] = await db
    .insert(deviceGroups)
    .values({ companyId: company.id, departmentId: department.id, name: `${marker} group` })
    .returning();
  const device = await buildDevice(db, company.id, { name: `${marker} fridge`, departmentId: department.id });
  const sensor = device.sensors[0]!;
  await db
    .update(sensors)
    .set({ name: `${marker} probe` })
    .where(eq(sensors.id, sensor.id));
  await db
    .insert(devicePermissions)
    .values({ companyId: company.id, userId: member.id, deviceId: Number(device.id) });
  const [setting] = await db
    .insert(alarmSettings)
    .values({
      companyId: company.id,
      carrier: 'sensor',
      targetId: sensor.id,
      deviceId: Number(device.id),
      sensorId: sensor.id,
      level: 1,
      alarmType: 'overLimit',
      min: 2,
      max: 8,
      repeat: 1,
      notifierIds: [member.id, company.admin.id],
    })
    .returning();
  const now = new Date();
  const [alarm] = await db
    .insert(alarmRecords)
    .values({
      companyId: company.id,
      deviceId: Number(device.id),
      sensorId: sensor.id,
      settingId: setting!.id,
      alarmType: 'overLimit',
      level: 1,
      alarmTime: now,
      excursionStart: now,
      dedupeKey: `${marker}:${setting!.id}:${now.getTime()}`,
      content: { en: `${marker} alarm`, cn: `${marker} 报警` },
      lastValue: 12,
    })
    .returning();
  const [notice] = await db
    .insert(notices)
    .values({
      companyId: company.id,
      userId: member.id,
      kind: 'system',
      title: { en: `${marker} notice`, cn: `${marker} 通知` },
      content: { en: `${marker} text`, cn: `${marker} 内容` },
    })
    .returning();
  const applicant = await buildUser(db, { name: `${marker} applicant` });
  const [request] = await db
    .insert(joinRequests)
    .values({
      companyId: company.id,
      departmentId: department.id,
      userId: applicant.id,
      remark: `${marker} please`,
    })
    .returning();
  const inviteCode = `${marker.replace(/\W/g, '')}${now.getTime()}`;
  await db.insert(invitations).values({
    code: inviteCode,
    companyId: company.id,
    departmentId: department.id,
    createdBy: company.admin.id,
    expiresAt: new Date(now.getTime() + 86_400_000),
  });
  await db.transaction((tx) =>
    recordAudit(
      tx,
      { companyId: company.id, userId: company.admin.id, ip: '' },
      { action: 'role.add', targetType: 'role', targetId: role.id, after: { name: `${marker} role` } },
    ),
  );
  const [equipmentType] = await db
    .insert(equipmentTypes)
    .values({ companyId: company.id, name: `${marker} fridge type`, code: '10' })
    .returning();
  const [fridge] = await db
    .insert(equipment)
    .values({
      companyId: company.id,
      typeId: equipmentType!.id,
      serial: '100001',
      serialSuffix: '0001',
      name: `${marker} cold room`,
      departmentId: department.id,
    })
    .returning();
  const [patrolPlan] = await db
    .insert(patrolPlans)
    .values({
      companyId: company.id,
      name: `${marker} patrol`,
      equipmentId: fridge!.id,
      intervalMinutes: 12 * 60,
      startTime: new Date(now.getTime() - 2 * 86_400_000),
    })
    .returning();
  const reportFingerprint = createHash('sha256').update(`${marker} report`).digest('hex');
  await db.insert(reportFiles).values({
    companyId: company.id,
    kind: 'sensorReport',
    fileName: `${marker}-report.pdf`,
    fingerprint: reportFingerprint,
    fileSha256: reportFingerprint,
    size: 1,
    generatedBy: company.admin.id,
    generatedByName: `${marker} admin`,
  });
  // An open-API key (modules/open-api): its name and its logged call carry the marker, so a key
  // list or usage log of another company that showed them would be caught.
  const [openApiKey] = await db
    .insert(openApiKeys)
    .values({
      companyId: company.id,
      name: `${marker} key`,
      appKey: `ak_${marker.replace(/\W/g, '').toLowerCase()}${now.getTime()}`,
      secretSealed: 'not-a-sealed-secret',
      createdBy: company.admin.id,
    })
    .returning();
  await db.insert(openApiKeyDevices).values({ keyId: openApiKey!.id, deviceId: Number(device.id) });
  await db.insert(openApiUsage).values({
    keyId: openApiKey!.id,
    method: 'GET',
    path: `/open/v1/devices?probe=${marker}`,
    httpStatus: 200,
    msgCode: 200,
    durationMs: 1,
  });
  // A push address (modules/push-docking): its name and its delivery's error carry the marker.
  const [pushUrl] = await db
    .insert(pushUrls)
    .values({
      companyId: company.id,
      name: `${marker} push`,
      url: `https://push.example.com/${marker.replace(/\W/g, '')}`,
      events: ['reading'],
      state: 2,
      secretSealed: 'not-a-sealed-secret',
      createdBy: company.admin.id,
    })
    .returning();
  await db.insert(pushBindings).values({ urlId: pushUrl!.id, deviceId: Number(device.id) });
  await db.insert(pushDeliveries).values({
    urlId: pushUrl!.id,
    event: 'test',
    body: '{}',
    items: 0,
    status: 'failed',
    error: `${marker} refused`,
  });
  // A platform docking (modules/platform-docking), enabled, with its queue address bound to the device.
  const [dockPlatform] = await db
    .insert(dockingPlatforms)
    .values({
      // A platform is the supplier's, offered to every company: its name is no company's data.
      name: `Platform ${company.id}`,
      protocol: 'generic-json',
      endpoint: 'https://platform.example.com/in',
      keyId: 'supplier',
      secretSealed: 'not-a-sealed-secret',
    })
    .returning();
  const [dockUrl] = await db
    .insert(pushUrls)
    .values({
      companyId: company.id,
      name: `${marker} platform`,
      url: 'https://platform.example.com/in',
      events: ['reading'],
      state: 2,
      secretSealed: 'not-a-sealed-secret',
      dockingOwned: true,
      adapter: 'generic-json',
    })
    .returning();
  await db.insert(pushBindings).values({ urlId: dockUrl!.id, deviceId: Number(device.id) });
  const [platformDocking] = await db
    .insert(platformDockings)
    .values({
      companyId: company.id,
      platformId: dockPlatform!.id,
      state: 2,
      deviceIds: [Number(device.id)],
      pushUrlId: dockUrl!.id,
      appliedBy: company.admin.id,
      reason: `${marker} docking`,
    })
    .returning();
  // Message credit (modules/billing): a grant naming the marker and a message paid for by an
  // alarm of the marked device, so the ledger and its export would show a leak.
  await grantCredit(db, company.id, 10, `${marker} grant`);
  const paid = await buildNotification(db, company.id, Number(device.id), member.id, 'sms');
  await reserveCredit(db, company.id, paid.notificationId, 'sms', 1);
  // A logistics address (modules/logistics): its name and contact carry the marker.
  const [logisticsAddress] = await db
    .insert(logisticsAddresses)
    .values({
      companyId: company.id,
      name: `${marker} warehouse`,
      contact: `${marker} contact`,
      phone: '13900000000',
      address: `${marker} dock`,
    })
    .returning();
  // A delivery order in transit (modules/logistics) with the device, its goods carrying the marker.
  const [receiverAddress] = await db
    .insert(logisticsAddresses)
    .values({
      companyId: company.id,
      name: `${marker} clinic`,
      contact: 'Dr',
      phone: '13900000001',
      address: 'x',
    })
    .returning();
  const copy = {
    name: `${marker} warehouse`,
    contact: '',
    phone: '',
    region: '',
    address: '',
    lng: null,
    lat: null,
  };
  const [delivery] = await db
    .insert(logisticsDeliveries)
    .values({
      companyId: company.id,
      orderNo: `DO-${marker}`,
      state: 2,
      senderAddressId: logisticsAddress!.id,
      receiverAddressId: receiverAddress!.id,
      sender: copy,
      receiver: { ...copy, name: `${marker} clinic` },
      goods: [{ name: `${marker} vaccine`, quantity: '1' }],
      tempMin: 2,
      tempMax: 8,
      departedAt: new Date(Date.now() - 3_600_000),
    })
    .returning();
  await db
    .insert(logisticsDeliveryDevices)
    .values({ deliveryId: delivery!.id, deviceId: Number(device.id), companyId: company.id });
  // A camera on a direct-stream account, watching the device (modules/camera).
  const [cameraAccount] = await db
    .insert(cameraPlatformAccounts)
    .values({ companyId: company.id, name: `${marker} streams`, platform: 'direct' })
    .returning();
  const [camera] = await db
    .insert(cameras)
    .values({
      companyId: company.id,
      platformAccountId: cameraAccount!.id,
      name: `${marker} camera`,
      serial: `${marker}-CAM`,
      streamUrl: 'https://cams.example.test/live.m3u8',
    })
    .returning();
  await db.insert(cameraDevices).values({ cameraId: camera!.id, deviceId: Number(device.id) });
  // A login of the member puts a login-log row and a session in place too.
  await login(app, member.account);
  return {
    companyId: company.id,
    rootDepartmentId: root!.id,
    departmentId: department.id,
    departmentCode: department.code,
    adminRoleId,
    roleId: role.id,
    userId: member.id,
    adminUserId: company.admin.id,
    deviceId: Number(device.id),
    sensorId: sensor.id,
    groupId: group!.id,
    settingId: setting!.id,
    alarmId: alarm!.id,
    noticeId: notice!.id,
    joinRequestId: request!.id,
    inviteCode,
    equipmentTypeId: equipmentType!.id,
    equipmentId: fridge!.id,
    patrolPlanId: patrolPlan!.id,
    reportFingerprint,
    openApiKeyId: openApiKey!.id,
    pushUrlId: pushUrl!.id,
    logisticsAddressId: logisticsAddress!.id,
    logisticsReceiverAddressId: receiverAddress!.id,
    logisticsDeliveryId: delivery!.id,
    cameraAccountId: cameraAccount!.id,
    cameraId: camera!.id,
    platformDockingId: platformDocking!.id,
  };
}

/**
 * A fingerprint per table of everything a company owns: every row of every table with a
 * `company_id`, rows of tables keyed by its devices or alarm settings, and its members' user rows.
 * Equal digests before and after a call mean the call changed nothing of the company.
 */
export async function companyDigest(db: Db, companyId: number): Promise<Record<string, string>> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND c.column_name IN ('company_id', 'device_id', 'setting_id')`,
  );
  const byTable = new Map<string, Set<string>>();
  for (const c of columns) {
    const set = byTable.get(c.table_name) ?? new Set();
    set.add(c.column_name);
    byTable.set(c.table_name, set);
  }
  // One query for all tables: the matrices take a digest after every call.
  const parts = [...byTable].map(([table, cols]) => {
    const where = cols.has('company_id')
      ? sql`t.company_id = ${companyId}`
      : cols.has('device_id')
        ? sql`t.device_id IN (SELECT id FROM devices WHERE company_id = ${companyId})`
        : sql`t.setting_id IN (SELECT id FROM alarm_settings WHERE company_id = ${companyId})`;
    return sql`SELECT ${table}::text AS name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM ${sql.identifier(table)} t WHERE ${where}`;
  });
  parts.push(
    sql`SELECT 'users' AS name, coalesce(md5(string_agg(u::text, '|' ORDER BY u.id)), '') AS h FROM users u
        WHERE u.id IN (SELECT user_id FROM company_members WHERE company_id = ${companyId})`,
  );
  const rows = await queryRows<{ name: string; h: string }>(db, sql.join(parts, sql` UNION ALL `));
  const digest: Record<string, string> = {};
  for (const row of rows) digest[row.name] = row.h;
  return digest;
}

/** Signed-in members of `companyId` in its root department, one per set of tags, made on demand. */
export function memberFactory(app: FastifyInstance, companyId: number, rootDepartmentId: number) {
  const made = new Map<string, Promise<string>>();
  return (tags: readonly string[]) => {
    const key = [...tags].sort().join(',');
    let token = made.get(key);
    if (!token) {
      token = (async () => {
        const role = await buildRole(app.db, companyId, rootDepartmentId, [...tags]);
        const user = await buildUser(app.db, { name: 'Matrix Member' });
        await addMember(app.db, companyId, user.id, false, {
          departmentId: rootDepartmentId,
          roleId: role.id,
        });
        return login(app, user.account);
      })();
      made.set(key, token);
    }
    return token;
  };
}

/** Values for the fields of request bodies: ids come from the target company, the rest is plausible. */
function candidates(ids: CompanyIds): Record<string, unknown[]> {
  const s = (n: number) => String(n);
  const everyId = [
    ids.deviceId,
    ids.sensorId,
    ids.departmentId,
    ids.rootDepartmentId,
    ids.roleId,
    ids.adminRoleId,
    ids.userId,
    ids.adminUserId,
    ids.groupId,
    ids.settingId,
    ids.alarmId,
    ids.noticeId,
    ids.joinRequestId,
    ids.companyId,
    ids.equipmentId,
    ids.equipmentTypeId,
    ids.patrolPlanId,
    ids.openApiKeyId,
    ids.pushUrlId,
    ids.logisticsAddressId,
    ids.logisticsDeliveryId,
    ids.cameraId,
    ids.cameraAccountId,
    ids.platformDockingId,
  ].map(s);
  const now = Date.now();
  return {
    id: [...everyId, ids.inviteCode],
    deviceId: [s(ids.deviceId)],
    sensorId: [s(ids.sensorId)],
    targetId: [s(ids.sensorId), s(ids.deviceId)],
    departmentId: [s(ids.departmentId), s(ids.rootDepartmentId)],
    parentId: [s(ids.rootDepartmentId), s(ids.groupId)],
    userId: [s(ids.userId), s(ids.adminUserId)],
    leaderId: [s(ids.userId)],
    roleId: [s(ids.roleId)],
    alarmId: [s(ids.alarmId)],
    groupId: [s(ids.groupId)],
    settingId: [s(ids.settingId)],
    deviceIds: [[s(ids.deviceId)]],
    userIds: [[s(ids.userId)]],
    notifierIds: [[s(ids.userId)]],
    code: [ids.departmentCode],
    pageNum: [1],
    pageSize: [20],
    name: ['Probe name'],
    tags: [['device:view']],
    remark: ['probe'],
    approve: [true],
    carrier: ['sensor', 'device'],
    level: [1],
    alarmType: ['overLimit'],
    min: [0],
    max: [10],
    repeat: [1],
    channels: [['email']],
    resolveType: ['handled'],
    cause: ['probe'],
    action: ['probe'],
    startTime: [now - 3_600_000],
    endTime: [now],
    permission: ['edit', 'view', 'none'],
    recordInterval: [60],
    uploadInterval: [60],
    alarmVerifyInterval: [60],
    offlineJudgement: [3],
    // csv first: a leaked name would be readable in it (xlsx is compressed).
    format: ['csv', 'xlsx'],
    timeZone: ['UTC'],
    enabled: [false],
    serial: ['PROBE0001'],
    content: ['probe'],
    category: [7],
    // Calibration records: a due date after the calibration time, so the body is valid.
    calibratedAt: [now - 365 * 86_400_000],
    nextDueAt: [now + 30 * 86_400_000],
    institution: ['probe'],
    typeId: [s(ids.equipmentTypeId)],
    equipmentId: [s(ids.equipmentId)],
    ids: [[s(ids.equipmentId)]],
    // Backup tasks (modules/report-tasks): a recipient and equipment of the target company.
    recipientIds: [[s(ids.userId)]],
    equipmentIds: [[s(ids.equipmentId)]],
    type: ['history', 'equipment'],
    frequency: ['daily'],
    toDepartmentId: [s(ids.departmentId)],
    serialSuffix: ['0002'],
    sensorIds: [[s(ids.sensorId)]],
    period: ['day'],
    planId: [s(ids.patrolPlanId)],
    // Over the 6-hour minimum of a patrol interval.
    intervalHours: [12],
    // Delivery orders (modules/logistics): the company's two addresses and a valid order.
    senderAddressId: [s(ids.logisticsAddressId)],
    receiverAddressId: [s(ids.logisticsReceiverAddressId)],
    goods: [[{ name: 'Probe goods', quantity: '1' }]],
    tempMin: [2],
    tempMax: [8],
    accepted: [true],
    recipient: ['probe@example.com'],
    channel: ['email'],
    // verifyReport: the company's own report fingerprint.
    sha256: [ids.reportFingerprint],
    // Cameras (modules/camera): the company's account, a direct address, a wall of its camera.
    platformAccountId: [s(ids.cameraAccountId)],
    platform: ['direct'],
    streamUrl: ['https://cams.example.test/probe.m3u8'],
    cameraIds: [[s(ids.cameraId)]],
    size: [4],
  };
}

/**
 * Bodies for a route, built from its zod schema: every field the schema names gets a value of
 * `ids`' company (the first candidate), and one more body per alternative candidate of a field,
 * so that `id` is tried as a device, a role, a user, an alarm and so on.
 */
export function bodiesFor(
  schema: unknown,
  ids: CompanyIds,
): { body: Record<string, unknown>; valid: boolean }[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  const parse = (body: unknown) =>
    !schema || (schema as { safeParse(v: unknown): { success: boolean } }).safeParse(body).success;
  if (!shape) return [{ body: {}, valid: parse({}) }];
  const values = candidates(ids);
  const base: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) if (values[key]) base[key] = values[key][0];
  const bodies = [base];
  for (const key of Object.keys(shape)) {
    for (const alternative of values[key]?.slice(1) ?? []) bodies.push({ ...base, [key]: alternative });
  }
  const optional = Object.keys(shape).filter(
    (key) => (shape[key] as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success,
  );
  return bodies.map((body) => withoutClashingField(body, optional, parse));
}

/**
 * A body that breaks only a rule across fields (a patrol plan names an equipment or a group, not
 * both) is tried without each optional field in turn, so such calls still run with the ids.
 */
function withoutClashingField(
  body: Record<string, unknown>,
  optional: string[],
  parse: (body: unknown) => boolean,
): { body: Record<string, unknown>; valid: boolean } {
  if (parse(body)) return { body, valid: true };
  for (const key of optional) {
    if (!(key in body)) continue;
    const { [key]: _dropped, ...rest } = body;
    if (parse(rest)) return { body: rest, valid: true };
  }
  return { body, valid: false };
}

/**
 * Calls a route the way the console does. Exports answer with a file rather than an envelope:
 * `raw` is what came back either way, so the matrices can look for leaked names in files too.
 */
export async function callRoute(
  app: FastifyInstance,
  url: string,
  body: unknown,
  token: string,
  companyId?: number,
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    platform: '1',
    accessToken: token,
  };
  if (companyId !== undefined) headers.companyId = String(companyId);
  const response = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
  const raw = response.body;
  let envelope: { msgCode: number; msgContent: string; data: unknown };
  try {
    envelope = JSON.parse(raw);
  } catch {
    envelope = {
      msgCode: response.statusCode === 200 ? 200 : response.statusCode,
      msgContent: '(file)',
      data: null,
    };
  }
  return { status: response.statusCode, body: envelope, raw };
}

import type { CameraView, LiveAddress, Page, PlatformAccountView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { cameraPlatformAccounts } from './camera.table';
import { FAKE_APP_KEY, FAKE_APP_SECRET, startFakeEzviz } from './fake-ezviz';

const ezviz = await startFakeEzviz();
// The app reads its camera settings when built: the fake platform, reachable on this machine.
process.env.EZVIZ_BASE_URL = ezviz.url;
process.env.CAMERA_ALLOW_HOSTS = '127.0.0.1';

describe('cameras and platform accounts', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  afterAll(() => ezviz.close());
  /** Every answer of the test, to look for a credential in clear. */
  const answers: string[] = [];

  async function setUp(services = ['service:camera']) {
    const company = await buildCompany(ctx.app.db, { services });
    const as = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const post = async <T>(url: string, body: unknown, language: 'en' | 'cn' = 'en') => {
      const answer = await call<T>(ctx.app, url, body, { ...as, language });
      answers.push(JSON.stringify(answer.body));
      return answer;
    };
    return { company, as, post };
  }

  it('keeps EZVIZ credentials sealed, imports the list, plays, refreshes the token, and names refusals', async () => {
    const { company, post } = await setUp();
    const saved = await post<{ id: string }>('/api/camera/savePlatformAccount', {
      name: 'Head office EZVIZ',
      platform: 'ezviz',
      appKey: FAKE_APP_KEY,
      appSecret: FAKE_APP_SECRET,
    });
    expect(saved.body.msgCode).toBe(200);
    const accountId = saved.body.data.id;

    // Stored sealed, shown masked.
    const [row] = await ctx.app.db
      .select()
      .from(cameraPlatformAccounts)
      .where(eq(cameraPlatformAccounts.companyId, company.id));
    expect(row!.appKeySealed).toMatch(/^v1:/);
    expect(row!.appSecretSealed).toMatch(/^v1:/);
    const accounts = await post<Page<PlatformAccountView>>('/api/camera/pagePlatformAccounts', {});
    expect(accounts.body.data.list).toEqual([
      expect.objectContaining({
        id: accountId,
        platform: 'ezviz',
        appKeyMasked: 'ez****34',
        hasSecret: true,
      }),
    ]);

    // Import: a token from key and secret, then the device list with that token.
    const imported = await post<{ listed: number; added: number }>('/api/camera/importCameras', {
      id: accountId,
    });
    expect(imported.body.data).toMatchObject({ listed: 2, added: 2, updated: 0 });
    expect(ezviz.requests.map((r) => r.path)).toEqual(['/api/lapp/token/get', '/api/lapp/device/list']);
    expect(ezviz.requests[0]!.form).toEqual({ appKey: FAKE_APP_KEY, appSecret: FAKE_APP_SECRET });
    expect(ezviz.requests[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(ezviz.requests[1]!.form).toMatchObject({
      accessToken: 'at.fake-1',
      pageStart: '0',
      pageSize: '50',
    });
    const cameras = await post<Page<CameraView>>('/api/camera/pageCameras', {});
    expect(cameras.body.data.list.map((c) => [c.name, c.serial, c.online, c.platform])).toEqual([
      ['Cold room door', 'E10001', true, 'ezviz'],
      ['Dock', 'E10002', false, 'ezviz'],
    ]);
    const door = cameras.body.data.list[0]!;

    // The live address, as HLS; the saved token is used again.
    const live = await post<LiveAddress>('/api/camera/liveAddress', { id: door.id });
    expect(live.body.data).toEqual({
      url: 'https://hls.example.test/E10001/1.m3u8?protocol=2',
      protocol: 'hls',
      expireTime: Date.parse('2030-01-01T08:00:00+08:00'),
    });
    expect(ezviz.requests.at(-1)!.form).toMatchObject({
      accessToken: 'at.fake-1',
      deviceSerial: 'E10001',
      channelNo: '1',
      protocol: '2',
    });
    expect(ezviz.tokensIssued()).toBe(1);

    // A token about to expire is replaced before use.
    await ctx.app.db
      .update(cameraPlatformAccounts)
      .set({ tokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(cameraPlatformAccounts.id, Number(accountId)));
    expect((await post('/api/camera/liveAddress', { id: door.id })).body.msgCode).toBe(200);
    expect(ezviz.tokensIssued()).toBe(2);
    expect(ezviz.requests.at(-1)!.form.accessToken).toBe('at.fake-2');

    // A token the platform calls dead is refreshed once and the call made again.
    ezviz.killTokens();
    expect((await post('/api/camera/liveAddress', { id: door.id })).body.msgCode).toBe(200);
    expect(ezviz.tokensIssued()).toBe(3);
    expect(ezviz.requests.slice(-3).map((r) => r.path)).toEqual([
      '/api/lapp/v2/live/address/get',
      '/api/lapp/token/get',
      '/api/lapp/v2/live/address/get',
    ]);

    // The platform's refusal is the message, in the caller's language; the camera shows offline.
    const dock = cameras.body.data.list[1]!;
    const refused = await post('/api/camera/liveAddress', { id: dock.id }, 'cn');
    expect(refused.body).toMatchObject({
      msgCode: 500,
      msgContent: translate('CAMERA_PLATFORM_REFUSED', 'cn', { reason: 'EZVIZ 20007: device offline' }),
    });

    // Editing the name keeps the credentials; a wrong secret is the platform's words.
    expect(
      (await post('/api/camera/savePlatformAccount', { id: accountId, name: 'EZVIZ HQ', platform: 'ezviz' }))
        .body.msgCode,
    ).toBe(200);
    const [kept] = await ctx.app.db
      .select()
      .from(cameraPlatformAccounts)
      .where(eq(cameraPlatformAccounts.id, Number(accountId)));
    expect(kept!.appSecretSealed).toBe(row!.appSecretSealed);
    await post('/api/camera/savePlatformAccount', {
      id: accountId,
      name: 'EZVIZ HQ',
      platform: 'ezviz',
      appKey: FAKE_APP_KEY,
      appSecret: 'wrong-secret',
    });
    const wrong = await post('/api/camera/importCameras', { id: accountId });
    expect(wrong.body.msgContent).toBe(
      translate('CAMERA_PLATFORM_REFUSED', 'en', { reason: 'EZVIZ 10030: appKey and appSecret mismatch' }),
    );

    // No answer and no operation-log entry carries a credential in clear.
    const trail = JSON.stringify(
      await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, company.id)),
    );
    expect(trail).toContain('cameraAccount.add');
    for (const text of [...answers, trail]) {
      expect(text).not.toContain(FAKE_APP_SECRET);
      expect(text).not.toContain(FAKE_APP_KEY);
      expect(text).not.toContain('wrong-secret');
      expect(text).not.toContain('at.fake-');
    }
  });

  it('checks names, the direct address and the service, in the caller language', async () => {
    const { post } = await setUp();
    const short = await post('/api/camera/savePlatformAccount', { name: 'x', platform: 'direct' }, 'cn');
    expect(short.body.msgContent).toContain('名称');
    expect(short.body.msgContent).toContain('2-100');
    const noKey = await post('/api/camera/savePlatformAccount', { name: 'EZVIZ', platform: 'ezviz' });
    expect(noKey.body.msgContent).toBe(translate('CAMERA_CREDENTIALS_REQUIRED', 'en'));
    const direct = await post<{ id: string }>('/api/camera/savePlatformAccount', {
      name: 'Own streams',
      platform: 'direct',
    });
    const noUrl = await post('/api/camera/saveCamera', {
      name: 'Gate',
      serial: 'G1',
      platformAccountId: direct.body.data.id,
    });
    expect(noUrl.body.msgContent).toBe(translate('CAMERA_STREAM_REQUIRED', 'en'));
    const badUrl = await post('/api/camera/saveCamera', {
      name: 'Gate',
      serial: 'G1',
      platformAccountId: direct.body.data.id,
      streamUrl: 'file:///etc/passwd',
    });
    expect(badUrl.body.msgContent).toContain('Stream address');
    // A direct address is the live view; the private network is refused when pictures are taken.
    const gate = await post<{ id: string }>('/api/camera/saveCamera', {
      name: 'Gate',
      serial: 'G1',
      platformAccountId: direct.body.data.id,
      streamUrl: 'https://cams.example.test/gate.m3u8',
    });
    const live = await post<LiveAddress>('/api/camera/liveAddress', { id: gate.body.data.id });
    expect(live.body.data.url).toBe('https://cams.example.test/gate.m3u8');
    expect(
      (await post('/api/camera/deletePlatformAccount', { id: direct.body.data.id })).body.msgContent,
    ).toBe(translate('CAMERA_ACCOUNT_IN_USE', 'en', { count: 1 }));

    const off = await setUp(['service:openApi']);
    const refused = await off.post('/api/camera/pageCameras', {}, 'cn');
    expect(refused.body).toMatchObject({ msgCode: 500, msgContent: translate('NO_PERMISSION', 'cn') });
  });

  it('keeps cameras to the department scope, as monitors', async () => {
    const { company, post } = await setUp();
    const cold = await buildDepartment(ctx.app.db, company.id, { name: 'Cold store' });
    const office = await buildDepartment(ctx.app.db, company.id, { name: 'Office' });
    const account = await post<{ id: string }>('/api/camera/savePlatformAccount', {
      name: 'Streams',
      platform: 'direct',
    });
    const fridge = await buildDevice(ctx.app.db, company.id, { departmentId: office.id });
    const inCold = await post<{ id: string }>('/api/camera/saveCamera', {
      name: 'Cold store cam',
      serial: 'C1',
      platformAccountId: account.body.data.id,
      streamUrl: 'https://cams.example.test/c1.m3u8',
      departmentId: String(cold.id),
    });
    expect(inCold.body.msgCode).toBe(200);
    await post('/api/camera/saveCamera', {
      name: 'Office cam',
      serial: 'O1',
      platformAccountId: account.body.data.id,
      streamUrl: 'https://cams.example.test/o1.m3u8',
      departmentId: String(office.id),
      deviceIds: [fridge.id],
    });
    const role = await buildRole(ctx.app.db, company.id, cold.id, [
      'camera:view',
      'camera:edit',
      'device:view',
    ]);
    const member = await buildUser(ctx.app.db, { name: 'Cold store guard' });
    await addMember(ctx.app.db, company.id, member.id, false, { departmentId: cold.id, roleId: role.id });
    const guard = { token: await login(ctx.app, member.account), companyId: company.id };
    const seen = await call<Page<CameraView>>(ctx.app, '/api/camera/pageCameras', {}, guard);
    expect(seen.body.data.list.map((c) => c.name)).toEqual(['Cold store cam']);
    const all = await post<Page<CameraView>>('/api/camera/pageCameras', {});
    const officeCam = all.body.data.list.find((c) => c.name === 'Office cam')!;
    expect(officeCam.devices.map((d) => d.id)).toEqual([fridge.id]);
    for (const url of ['/api/camera/cameraDetail', '/api/camera/liveAddress', '/api/camera/deleteCamera'])
      expect((await call(ctx.app, url, { id: officeCam.id }, guard)).body.msgContent).toBe(
        translate('CAMERA_NOT_FOUND', 'en'),
      );
    // Watching a monitor outside the scope is refused as "no such device".
    const watching = await call(
      ctx.app,
      '/api/camera/saveCamera',
      {
        name: 'Sneaky',
        serial: 'S1',
        platformAccountId: account.body.data.id,
        streamUrl: 'https://cams.example.test/s1.m3u8',
        deviceIds: [fridge.id],
      },
      guard,
    );
    expect(watching.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
    // The wall remembers the guard's choice, and only cameras the guard sees.
    expect(
      (await call(ctx.app, '/api/camera/saveScreen', { size: 9, cameraIds: [inCold.body.data.id] }, guard))
        .body.msgCode,
    ).toBe(200);
    expect((await call(ctx.app, '/api/camera/screen', {}, guard)).body.data).toEqual({
      size: 9,
      cameraIds: [inCold.body.data.id],
    });
    expect(
      (await call(ctx.app, '/api/camera/saveScreen', { size: 4, cameraIds: [officeCam.id] }, guard)).body
        .msgContent,
    ).toBe(translate('CAMERA_NOT_FOUND', 'en'));
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportFileView } from '@coldchain/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { call, testConfig } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { type S3TestServer, startS3TestServer } from '../../test/s3-test-server';
import { useTwoInstances } from '../../test/two-instances';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.alloc(2000, 7),
]);

/** Uploads one file in a multipart form, as the console does; answers its `/files/<name>` path. */
async function upload(app: FastifyInstance, token: string, bytes: Buffer): Promise<string> {
  const boundary = '----cc-instances-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const answer = await app.inject({
    method: 'POST',
    url: '/api/file/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accessToken: token },
    payload,
  });
  return (answer.json().data as { url: string }).url;
}

/**
 * Two server instances on one PostgreSQL database and one S3-compatible bucket (s3rver, in this
 * process), each with an upload directory of its own that must stay empty: whatever one instance
 * stores, the other serves.
 */
describe('files shared by two instances through S3_URL', () => {
  let s3: S3TestServer;
  const dirA = mkdtempSync(path.join(tmpdir(), 'cc-instance-a-'));
  const dirB = mkdtempSync(path.join(tmpdir(), 'cc-instance-b-'));
  let token: string;

  // Registered before the instances: clean-ups run in reverse, so the store outlives both.
  afterAll(async () => {
    await s3?.close();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  });
  const two = useTwoInstances({
    prepare: async () => {
      s3 = await startS3TestServer();
    },
    config: (instance) =>
      testConfig({
        loginRateLimitPerMinute: 10_000,
        uploadDir: instance === 'A' ? dirA : dirB,
        s3: s3.settings(),
      }),
    started: async ({ appA }) => {
      const company = await buildCompany(appA.db, { name: 'Shared files', services: ['service:dataBackup'] });
      token = await login(appA, company.admin.account);
    },
  });

  it('serves a file uploaded through one instance from the other', async () => {
    expect(two.appA.files.kind).toBe('s3');
    const url = await upload(two.appA, token, PNG);
    expect(url).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);

    const served = await two.appB.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Number(served.headers['content-length'])).toBe(PNG.length);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Nothing on either instance's disk: the bucket holds it.
    expect(readdirSync(dirA)).toEqual([]);
    expect(readdirSync(dirB)).toEqual([]);
    expect((await two.appB.inject({ method: 'GET', url: `/files/${'0'.repeat(32)}.png` })).statusCode).toBe(
      404,
    );
  });

  it('checks an upload made through one instance when the other is told to keep it', async () => {
    const url = await upload(two.appA, token, PNG);
    const saveType = (introImage: string) =>
      call(two.appB, '/api/equipmentType/saveType', { name: 'Fridge', code: '12', introImage }, { token });
    // The other instance reads the bytes back from the bucket and checks them again (a PNG).
    expect((await saveType(url)).body.msgCode).toBe(200);
    expect((await saveType(`/files/${'1'.repeat(32)}.png`)).body.msgCode).toBe(500);
  });

  it('lets the other instance download a backup file one instance generated, by its run and in the data centre', async () => {
    const saved = await call<{ id: string }>(
      two.appA,
      '/api/report/saveTask',
      { name: 'Audit', type: 'audit', frequency: 'daily', format: 'csv', emails: ['a@example.com'] },
      { token },
    );
    expect(saved.body.msgCode).toBe(200);
    const now = Date.now();
    const ran = await call(
      two.appA,
      '/api/report/runTask',
      { id: saved.body.data.id, startTime: now - 3_600_000, endTime: now },
      { token },
    );
    expect(ran.body.msgCode).toBe(200);
    await two.appA.jobs.runDue();
    const runs = await call<{ list: { id: string; status: string; size: number }[] }>(
      two.appB,
      '/api/report/pageRuns',
      {},
      { token },
    );
    const run = runs.body.data.list[0]!;
    expect(run.status).toBe('done');

    const download = await two.appB.inject({
      method: 'POST',
      url: '/api/report/downloadRun',
      headers: { 'content-type': 'application/json', accessToken: token, platform: '1' },
      payload: JSON.stringify({ id: run.id }),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/text\/csv/);
    expect(Number(download.headers['content-length'])).toBe(run.size);
    expect(download.rawPayload.length).toBe(run.size);

    const files = await call<{ list: ReportFileView[] }>(
      two.appB,
      '/api/dataCenter/pageFiles',
      {},
      { token },
    );
    const kept = files.body.data.list.find((f) => f.stored)!;
    const fromDataCentre = await two.appB.inject({
      method: 'POST',
      url: '/api/dataCenter/downloadFile',
      headers: { 'content-type': 'application/json', accessToken: token, platform: '1' },
      payload: JSON.stringify({ id: kept.id }),
    });
    expect(fromDataCentre.statusCode).toBe(200);
    expect(fromDataCentre.rawPayload.equals(download.rawPayload)).toBe(true);
    expect(readdirSync(dirA)).toEqual([]);
  });
});

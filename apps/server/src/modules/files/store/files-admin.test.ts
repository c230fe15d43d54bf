import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3TestServer } from '../../../test/s3-test-server';
import { S3FileStore } from './s3-store';
import { readStoredBytes } from './store';

const admin = path.resolve(import.meta.dirname, '../../../admin.ts');

function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', admin, ...args], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Moving an existing upload directory into a bucket (docs/file-storage.md), as an operator would. */
describe('npm run admin -- files copy', () => {
  let s3: S3TestServer;
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'cc-copy-'));
  const upload = `${'a'.repeat(32)}.png`;
  const report = `reports/${'b'.repeat(32)}.csv`;

  beforeAll(async () => {
    s3 = await startS3TestServer();
    mkdirSync(path.join(uploadDir, 'reports'));
    writeFileSync(path.join(uploadDir, upload), 'png bytes');
    writeFileSync(path.join(uploadDir, report), 'a,b\n1,2\n');
    writeFileSync(path.join(uploadDir, '.DS_Store'), 'finder');
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('copies every file under its own name, then nothing on a second run', async () => {
    const env = { DATA_DIR: uploadDir, UPLOAD_DIR: uploadDir, S3_URL: s3.url('files', 'coldchain') };
    const first = await runAdmin(['files', 'copy'], env);
    expect(first.output).toContain('2 file(s) copied, 0 already there.');
    expect(first.output).toContain('Not copied (not names the server gives): .DS_Store');
    expect(first.code).toBe(0);
    const bucket = new S3FileStore(s3.settings('files', 'coldchain'));
    try {
      expect((await readStoredBytes(bucket, upload))!.toString()).toBe('png bytes');
      expect((await readStoredBytes(bucket, report))!.toString()).toBe('a,b\n1,2\n');
      expect(await bucket.stat(report)).toMatchObject({ contentType: 'text/csv; charset=utf-8' });
    } finally {
      bucket.close();
    }
    const second = await runAdmin(['files', 'copy'], env);
    expect(second.output).toContain('0 file(s) copied, 2 already there.');
  }, 60_000);

  it('says what is missing without S3_URL, and names S3_URL when the bucket cannot be used', async () => {
    const unset = await runAdmin(['files', 'copy'], { UPLOAD_DIR: uploadDir, S3_URL: '' });
    expect(unset.code).toBe(2);
    expect(unset.output).toContain('Set S3_URL to the bucket to copy UPLOAD_DIR into');
    const missing = await runAdmin(['files', 'copy'], {
      UPLOAD_DIR: uploadDir,
      S3_URL: s3.url('missing-bucket'),
    });
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(
      /^The file store of S3_URL cannot be used: the bucket "missing-bucket" does not exist/m,
    );
    expect(missing.output).not.toMatch(/\n\s+at /);
  }, 60_000);
});

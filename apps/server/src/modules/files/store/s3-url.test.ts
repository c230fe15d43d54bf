import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../lib/config';
import { ensureServerBundle } from '../../../test/server-bundle';
import { parseS3Url } from './s3-url';

describe('S3_URL', () => {
  it('reads endpoint, credentials, bucket, prefix, region and addressing style', () => {
    expect(parseS3Url('http://minio:minio%2Fsecret%2B1@files.local:9000/coldchain?region=eu-west-1')).toEqual(
      {
        endpoint: 'http://files.local:9000',
        bucket: 'coldchain',
        prefix: '',
        region: 'eu-west-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'minio', secretAccessKey: 'minio/secret+1' },
      },
    );
    expect(parseS3Url('https://s3.eu-central-1.amazonaws.com/my.bucket/cold/chain?style=virtual')).toEqual({
      endpoint: 'https://s3.eu-central-1.amazonaws.com',
      bucket: 'my.bucket',
      prefix: 'cold/chain/',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it.each([
    ['files on minio', /not a URL: expected http\(s\):\/\/ACCESS_KEY:SECRET_KEY@host/],
    ['ftp://a:b@host/files', /must start with http:\/\/ or https:\/\//],
    ['http://a:b@host:9000', /names no bucket/],
    ['http://a:b@host:9000/Files_Bucket', /bucket "Files_Bucket" is not a valid bucket name/],
    ['http://a:b@host:9000/files/cold chain', /prefix folder "cold%20chain" may hold only letters/],
    ['http://a:b@host:9000/files?regoin=x', /unknown parameter "regoin" \(known: region, style\)/],
    ['http://a:b@host:9000/files?style=dns', /style must be "path" or "virtual"/],
    ['http://onlykey@host:9000/files', /give both the access key and the secret key/],
  ])('refuses %s with a sentence saying why', (text, message) => {
    expect(parseS3Url(text)).toMatch(message);
  });

  it('stops the configuration with a message naming S3_URL, never repeating the secret', () => {
    expect(() => loadConfig({ S3_URL: 'http://key:hush-hush@host:9000/' })).toThrow(ConfigError);
    try {
      loadConfig({ S3_URL: 'http://key:hush-hush@host:9000/' });
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n\s+S3_URL: names no bucket/);
      expect((error as Error).message).not.toContain('hush-hush');
    }
  });

  it('leaves files in UPLOAD_DIR when unset or empty', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_URL: '' }).s3).toBeUndefined();
    expect(loadConfig({ S3_URL: 'http://k:s@127.0.0.1:9000/files' }).s3?.bucket).toBe('files');
  });

  it('stops the server process with one line naming S3_URL, no stack trace', async () => {
    const run = (S3_URL: string) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [ensureServerBundle()], {
          cwd: path.resolve(import.meta.dirname, '../../../..'),
          env: {
            ...process.env,
            LOG_LEVEL: 'warn',
            PORT: '0',
            MQTT_PORT: '0',
            DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cc-')),
            S3_URL,
          },
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('exit', (code) => resolve({ code, output }));
      });
    const malformed = await run('http://key:secret@host:9000');
    expect(malformed.code).toBe(1);
    expect(malformed.output).toMatch(/Invalid configuration:\n\s+S3_URL: names no bucket/);
    // Well formed, but nothing answers there: said before the database is opened.
    const unreachable = await run('http://key:secret@127.0.0.1:9/files');
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(
      /^The file store of S3_URL cannot be used: cannot reach http:\/\/127\.0\.0\.1:9 /m,
    );
    for (const { output } of [malformed, unreachable]) {
      expect(output).not.toMatch(/\n\s+at /);
      expect(output).not.toContain('secret');
    }
  }, 90_000);
});

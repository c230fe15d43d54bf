import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_KEY, type S3TestServer, startS3TestServer } from '../../../test/s3-test-server';
import { DiskFileStore } from './disk-store';
import { S3FileStore } from './s3-store';
import { parseS3Url, type S3Settings } from './s3-url';
import { type FileStore, FileStoreError, readStoredBytes } from './store';

const name = (ext = 'pdf') => `${randomBytes(16).toString('hex')}.${ext}`;

async function chunksOf(body: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return chunks;
}

/** A stream handing out `bytes` in 64 KiB pieces, as a file or a socket would. */
function slowStream(bytes: Buffer): Readable {
  let at = 0;
  return new Readable({
    read() {
      const piece = at < bytes.length ? bytes.subarray(at, at + 65_536) : null;
      at += 65_536;
      this.push(piece);
    },
  });
}

let s3: S3TestServer;
const uploadDir = mkdtempSync(path.join(tmpdir(), 'cc-store-'));
beforeAll(async () => {
  s3 = await startS3TestServer(['files', 'other']);
});
afterAll(async () => {
  await s3?.close();
  rmSync(uploadDir, { recursive: true, force: true });
});

/** The same behaviour from both backends: what the server's code relies on. */
describe.each([
  ['disk', () => new DiskFileStore(uploadDir)],
  ['S3', () => new S3FileStore(s3.settings('files'))],
  ['S3 under a prefix', () => new S3FileStore(s3.settings('other', 'cold/chain'))],
] as const)('file store on %s', (_kind, open) => {
  let store: FileStore;
  beforeAll(() => {
    store = open();
  });
  afterAll(() => store.close());

  it('stores a buffer and gives it back as a stream with its size and type', async () => {
    const key = name('png');
    const bytes = randomBytes(1000);
    await store.put(key, bytes, { contentType: 'image/png' });
    const file = await store.get(key);
    expect(file).toMatchObject({ size: 1000, contentType: 'image/png' });
    expect(file!.body).toBeInstanceOf(Readable);
    expect(Buffer.concat(await chunksOf(file!.body))).toEqual(bytes);
    expect(await store.stat(key)).toEqual({ size: 1000, contentType: 'image/png' });
  });

  it('streams both ways: a 3 MB stream goes in as it is read and comes out in pieces', async () => {
    const key = `reports/${name('xlsx')}`;
    const bytes = randomBytes(3 * 1024 * 1024);
    await store.put(key, slowStream(bytes), { contentType: 'application/octet-stream', size: bytes.length });
    const file = await store.get(key);
    expect(file!.size).toBe(bytes.length);
    const chunks = await chunksOf(file!.body);
    // Several pieces: the download is piped on, never read whole first.
    expect(chunks.length).toBeGreaterThan(2);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('stores a stream of unknown length', async () => {
    const key = name('csv');
    await store.put(key, Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), {
      contentType: 'text/csv; charset=utf-8',
    });
    expect((await readStoredBytes(store, key))!.toString()).toBe('a,b\n1,2\n');
  });

  it('answers null for a file that is not there, and deletes (twice) without complaint', async () => {
    const key = name();
    expect(await store.get(key)).toBeNull();
    expect(await store.stat(key)).toBeNull();
    await store.put(key, Buffer.from('%PDF-'), { contentType: 'application/pdf' });
    await store.delete(key);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  it('lists the files under a prefix with their sizes', async () => {
    const keys = [`listed/${name()}`, `listed/${name()}`];
    for (const key of keys) await store.put(key, Buffer.from(key), { contentType: 'application/pdf' });
    const listed = [];
    for await (const item of store.list('listed/')) listed.push(item);
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      keys.sort().map((key) => ({ key, size: key.length })),
    );
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../secret.key', '/etc/passwd', 'reports/../../x', '.hidden', '', 'a//b'])
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        /not a file store key/,
      );
    await expect(store.get('../secret.key')).rejects.toThrow(/not a file store key/);
  });

  it('is ready to use as configured', async () => {
    await expect(store.verify()).resolves.toBeUndefined();
  });
});

describe('disk file store', () => {
  it('keeps the layout of earlier versions: uploads at the top, reports in reports/', async () => {
    const store = new DiskFileStore(uploadDir);
    const upload = name('jpg');
    const report = `reports/${name('pdf')}`;
    await store.put(upload, Buffer.from('jpeg'), { contentType: 'image/jpeg' });
    await store.put(report, Buffer.from('pdf'), { contentType: 'application/pdf' });
    expect(readFileSync(path.join(uploadDir, upload), 'utf8')).toBe('jpeg');
    expect(readFileSync(path.join(uploadDir, report), 'utf8')).toBe('pdf');
    // The type of a file on disk is its extension's.
    expect(await store.stat(upload)).toEqual({ size: 4, contentType: 'image/jpeg' });
  });

  it('never overwrites a stored file', async () => {
    const store = new DiskFileStore(uploadDir);
    const key = name();
    await store.put(key, Buffer.from('first'), { contentType: 'application/pdf' });
    await expect(store.put(key, Buffer.from('second'), { contentType: 'application/pdf' })).rejects.toThrow(
      /EEXIST/,
    );
    await expect(store.put(key, Readable.from([Buffer.from('third')]), { contentType: 'x' })).rejects.toThrow(
      /EEXIST/,
    );
    expect((await readStoredBytes(store, key))!.toString()).toBe('first');
  });

  it('leaves no half file when the stream fails', async () => {
    const store = new DiskFileStore(uploadDir);
    const key = name();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put(key, failing, { contentType: 'application/pdf' })).rejects.toThrow(/went away/);
    expect(await store.stat(key)).toBeNull();
  });
});

describe('S3 file store: a bucket that cannot be used', () => {
  const verifyError = async (settings: S3Settings) => {
    const store = new S3FileStore(settings);
    try {
      await store.verify();
      return null;
    } catch (error) {
      return error as Error;
    } finally {
      store.close();
    }
  };

  it('names S3_URL and the missing bucket', async () => {
    const error = await verifyError(s3.settings('no-such-bucket'));
    expect(error).toBeInstanceOf(FileStoreError);
    expect(error!.message).toMatch(
      /^The file store of S3_URL cannot be used: the bucket "no-such-bucket" does not exist/,
    );
  });

  it('names S3_URL when the credentials are refused, without repeating the secret', async () => {
    const settings = {
      ...s3.settings('files'),
      credentials: { accessKeyId: 'WRONG', secretAccessKey: 'hush-hush' },
    };
    const error = await verifyError(settings);
    expect(error!.message).toMatch(
      /S3_URL.*refused access to the bucket "files": check the access key and secret key/,
    );
    expect(error!.message).not.toContain('hush-hush');
  });

  it('names S3_URL when nothing answers at its address', async () => {
    const settings = parseS3Url(`http://${S3RVER_KEY}:${S3RVER_KEY}@127.0.0.1:9/files`) as S3Settings;
    const error = await verifyError(settings);
    expect(error!.message).toMatch(
      /^The file store of S3_URL cannot be used: cannot reach http:\/\/127\.0\.0\.1:9 /,
    );
  });
});

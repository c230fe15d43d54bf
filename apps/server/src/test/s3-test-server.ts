import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { parseS3Url, type S3Settings } from '../modules/files/store/s3-url';

export interface S3TestServer {
  /** An S3_URL for `bucket`, with the server's credentials. */
  url(bucket?: string, prefix?: string): string;
  settings(bucket?: string, prefix?: string): S3Settings;
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks every request's signature against them. */
export const S3RVER_KEY = 'S3RVER';

/**
 * A real S3-compatible server (s3rver: the S3 REST API in JavaScript, objects in a temporary
 * folder) on a free port of this machine, with the bucket `files` made; for file store tests.
 */
export async function startS3TestServer(buckets = ['files']): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'cc-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const url = (bucket = 'files', prefix = '') =>
    `http://${S3RVER_KEY}:${S3RVER_KEY}@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}`;
  return {
    url,
    settings: (bucket, prefix) => parseS3Url(url(bucket, prefix)) as S3Settings,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

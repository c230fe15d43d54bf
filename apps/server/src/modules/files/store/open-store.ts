import { DiskFileStore } from './disk-store';
import type { S3Settings } from './s3-url';
import type { FileStore } from './store';

/**
 * The store the configuration names: the bucket of S3_URL when set, else the directory UPLOAD_DIR.
 * The S3 client is loaded only then: a start without S3_URL does not pay its 200 ms and 25 MB.
 */
export async function openFileStore(config: { uploadDir: string; s3?: S3Settings }): Promise<FileStore> {
  if (!config.s3) return new DiskFileStore(config.uploadDir);
  const { S3FileStore } = await import('./s3-store');
  return new S3FileStore(config.s3);
}

import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { describeS3, type S3Settings } from './s3-url';
import {
  assertKey,
  type FileStore,
  FileStoreError,
  type PutOptions,
  type StoredFile,
  type StoredFileInfo,
} from './store';

interface S3Failure {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

function isNotFound(error: unknown): boolean {
  const e = error as S3Failure;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3-compatible bucket (S3_URL): AWS S3, MinIO, Ceph RGW, Garage, SeaweedFS... Every
 * instance given the same S3_URL sees the same files. Bodies stream both ways: a download is the
 * object's response piped on, and a stream of known length is sent as it is read.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly location: string;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.location = describeS3(settings);
    // The version in package-lock.json runs on Node 20; its warning is about later versions.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where S3 requires them: the SDK's default (CRC32 trailers in aws-chunked
      // bodies) is refused by many S3-compatible servers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer fails the call in seconds instead of holding the request;
      // no idle timeout on the transfer itself, which a slow client's download may pause.
      requestHandler: { connectionTimeout: 5_000 },
    });
  }

  private objectKey(key: string): string {
    assertKey(key);
    return this.settings.prefix + key;
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    // S3 needs a body's length before it: a stream without one is read first. The server's own
    // files (uploads, reports) are buffers already; `npm run admin -- files copy` passes sizes.
    const bytes = Buffer.isBuffer(body) || options.size !== undefined ? body : await collect(body);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentType: options.contentType,
        ContentLength: Buffer.isBuffer(bytes) ? bytes.length : options.size,
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        body: answer.Body as Readable,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  async *list(prefix: string): AsyncIterable<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.settings.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) yield { key: item.Key.slice(this.settings.prefix.length), size: item.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The bucket exists and these credentials may use it; otherwise one sentence naming S3_URL. */
  async verify(): Promise<void> {
    const { bucket, endpoint } = this.settings;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (error) {
      const e = error as S3Failure & { message?: string };
      const status = e.$metadata?.httpStatusCode;
      let reason: string;
      if (status === 404) reason = `the bucket "${bucket}" does not exist at ${endpoint}: create it first`;
      else if (status === 401 || status === 403)
        reason = `${endpoint} refused access to the bucket "${bucket}": check the access key and secret key`;
      else if (status === 301 || status === 400)
        reason = `${endpoint} refused the request for the bucket "${bucket}" (HTTP ${status}): check the region`;
      else reason = `cannot reach ${endpoint} (${e.code ?? e.name ?? 'error'}: ${e.message ?? ''})`;
      throw new FileStoreError(`The file store of S3_URL cannot be used: ${reason}.`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

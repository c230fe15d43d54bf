import type { Readable } from 'node:stream';

/**
 * Where uploads and generated files live (docs/file-storage.md): a directory on this machine
 * (UPLOAD_DIR, the default: one instance) or an S3-compatible bucket (S3_URL: every instance
 * sees the same files). Keys are relative paths with `/` between folders, the same on both, so an
 * upload directory copied into a bucket as it is keeps working: `<name>` for uploads (served by
 * `/files/<name>`), `reports/<name>` for generated files.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** The directory, or `s3://bucket/prefix` at its endpoint: for logs and messages. */
  readonly location: string;
  /** Stores a file under a key nothing else uses (names are 128 random bits). */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** The file as a stream to send, or null when there is none; the stream must be read or destroyed. */
  get(key: string): Promise<StoredFile | null>;
  stat(key: string): Promise<StoredFileInfo | null>;
  /** Removes a file; a key with no file is not an error. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with `prefix` (`''`: all), for sweeps and copying a store. */
  list(prefix: string): AsyncIterable<{ key: string; size: number }>;
  /** Throws a FileStoreError naming the setting when the store cannot be used (checked at start). */
  verify(): Promise<void>;
  close(): void;
}

export interface PutOptions {
  contentType: string;
  /** The length of a stream body: with it, S3 streams the body instead of reading it first. */
  size?: number;
}

export interface StoredFileInfo {
  size: number;
  contentType: string;
}

export interface StoredFile extends StoredFileInfo {
  body: Readable;
}

/** A store that cannot be used as configured; the message names the setting (S3_URL, UPLOAD_DIR). */
export class FileStoreError extends Error {}

/** Folders and names of letters, digits, `.`, `_` and `-`, none starting with `.`: no `..`, no absolute path. */
const KEY_PATTERN = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function isStoreKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertKey(key: string): void {
  if (!isStoreKey(key)) throw new Error(`not a file store key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The content type a key's extension stands for (the disk keeps no other record of it). */
export function contentTypeOfKey(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/**
 * The whole file, for what needs its bytes rather than a stream: checking an upload's real type,
 * attaching a file to an e-mail. Downloads stream (`get`) instead.
 */
export async function readStoredBytes(store: FileStore, key: string): Promise<Buffer | null> {
  const file = await store.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

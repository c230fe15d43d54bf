import { randomBytes } from 'node:crypto';
import type { WireLanguage } from '@coldchain/contract';
import {
  UPLOAD_URL_PREFIX,
  UploadPurpose,
  type UploadPurposeName,
  type UploadResult,
} from '@coldchain/contract';
import { uploadPurposeNames } from '../../i18n/catalogues/profile';
import { AppError } from '../../lib/app-error';
import { CONTENT_TYPES, type SniffedType, sniffFileType } from './file-type';
import { type FileStore, readStoredBytes, type StoredFile } from './store/store';

/** Stored names are 128 random bits: the name is the only key to a file, so it must not be guessable. */
export const STORED_NAME_PATTERN = /^[a-f0-9]{32}\.(jpg|png|gif|webp|pdf)$/;

export function formatBytes(bytes: number): string {
  // "Under 5 MB" is stored as 5 MiB - 1 byte and still reads as 5 MB.
  const mb = bytes / 1_048_576;
  return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Checks a file against its purpose's limits (size, then real type); returns its real type. */
export function checkUpload(purpose: UploadPurposeName, bytes: Buffer, language: WireLanguage): SniffedType {
  const rule = UploadPurpose[purpose];
  const purposeName = uploadPurposeNames[purpose]?.[language] ?? purpose;
  if (bytes.length === 0) throw new AppError('UPLOAD_NO_FILE');
  if (bytes.length > rule.maxBytes) {
    throw new AppError('UPLOAD_TOO_LARGE', { max: formatBytes(rule.maxBytes), purpose: purposeName });
  }
  const type = sniffFileType(bytes);
  if (!type || !(rule.types as readonly string[]).includes(type)) {
    throw new AppError('UPLOAD_WRONG_TYPE', {
      purpose: purposeName,
      types: rule.types.map((t) => t.toUpperCase()).join(', '),
    });
  }
  return type;
}

/** Stores a checked file under a new random name and returns where it is served. */
export async function writeUpload(files: FileStore, bytes: Buffer, type: SniffedType): Promise<UploadResult> {
  const name = `${randomBytes(16).toString('hex')}.${type}`;
  await files.put(name, bytes, { contentType: CONTENT_TYPES[type] });
  return { url: `${UPLOAD_URL_PREFIX}${name}`, size: bytes.length, type };
}

/** The stored name of an upload path (`/files/<name>`), or null when the path is not one of ours. */
export function uploadName(url: string): string | null {
  const name = url.startsWith(UPLOAD_URL_PREFIX) ? url.slice(UPLOAD_URL_PREFIX.length) : '';
  return STORED_NAME_PATTERN.test(name) ? name : null;
}

/**
 * The bytes of a file an upload call stored, from the `/files/<name>` path it returned; null when
 * the path is not one of ours or the file is gone. Calls that keep a reference re-check it with
 * `checkUpload`, so a path to a file stored for another purpose is refused too.
 */
export async function readUpload(
  files: FileStore,
  url: string,
): Promise<{ name: string; bytes: Buffer } | null> {
  const name = uploadName(url);
  const bytes = name ? await readStoredBytes(files, name) : null;
  return name && bytes ? { name, bytes } : null;
}

/** An uploaded file as a stream to send (a download), or null like `readUpload`. */
export async function openUpload(files: FileStore, url: string): Promise<StoredFile | null> {
  const name = uploadName(url);
  return name ? files.get(name) : null;
}

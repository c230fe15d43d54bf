import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertKey,
  contentTypeOfKey,
  type FileStore,
  type PutOptions,
  type StoredFile,
  type StoredFileInfo,
} from './store';

/**
 * Files in one directory (UPLOAD_DIR, default `<DATA_DIR>/uploads`), a key being its path below
 * it: the layout of every earlier version, so an existing directory keeps working. Only the
 * instance on this machine sees them (docs/file-storage.md).
 */
export class DiskFileStore implements FileStore {
  readonly kind = 'disk';
  readonly location: string;

  constructor(readonly root: string) {
    this.location = root;
  }

  private pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer | Readable, _options: PutOptions): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // `wx`: a stored file is never overwritten.
    if (Buffer.isBuffer(body)) {
      await writeFile(file, body, { flag: 'wx' });
      return;
    }
    try {
      await pipeline(body, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      // A stream that failed half-way must not leave half a file under the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(file, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    // Opened first, then measured: a file removed in between is either sent whole or not found.
    const handle = await open(this.pathOf(key), 'r').catch(() => null);
    if (!handle) return null;
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    return { size: info.size, contentType: contentTypeOfKey(key), body: handle.createReadStream() };
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    const info = await stat(this.pathOf(key)).catch(() => null);
    return info?.isFile() ? { size: info.size, contentType: contentTypeOfKey(key) } : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<{ key: string; size: number }> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (!key.startsWith(prefix)) continue;
      const info = await stat(path.join(this.root, key)).catch(() => null);
      if (info) yield { key, size: info.size };
    }
  }

  /** Nothing to check: the directory is made on the first write, as it always was. */
  async verify(): Promise<void> {}

  close(): void {}
}

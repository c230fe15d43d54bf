import { type FileStore, isStoreKey } from './store';

export interface CopyCount {
  copied: number;
  /** Already in the target with the same size (a second run copies nothing again). */
  present: number;
  /** Names no file of ours can have (editor backups, `.DS_Store`): left where they are. */
  ignored: string[];
}

/**
 * Copies every file of one store into another under the same key, streaming each one: how an
 * upload directory moves into the bucket of S3_URL (`npm run admin -- files copy`). Files the
 * target already holds with the same size are left alone, so it may run again after an
 * interruption, or once more after the switch to pick up what was stored meanwhile.
 */
export async function copyStore(
  from: FileStore,
  to: FileStore,
  progress: (key: string) => void = () => undefined,
): Promise<CopyCount> {
  const count: CopyCount = { copied: 0, present: 0, ignored: [] };
  for await (const { key, size } of from.list('')) {
    if (!isStoreKey(key)) {
      count.ignored.push(key);
      continue;
    }
    if ((await to.stat(key))?.size === size) {
      count.present++;
      continue;
    }
    const file = await from.get(key);
    if (!file) continue;
    await to.put(key, file.body, { contentType: file.contentType, size: file.size });
    count.copied++;
    progress(key);
  }
  return count;
}

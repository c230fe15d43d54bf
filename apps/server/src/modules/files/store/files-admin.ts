import type { Config } from '../../../lib/config';
import { copyStore } from './copy-store';
import { DiskFileStore } from './disk-store';
import { openFileStore } from './open-store';

export const FILES_USAGE = `npm run admin -- files copy
                     copies every file of UPLOAD_DIR into the bucket of S3_URL under the same names
                     (files already there with the same size are skipped; safe to run again).`;

/**
 * `files copy`: moves an existing upload directory into the bucket before (and once more after)
 * the instances switch to S3_URL (docs/file-storage.md, "Moving an upload directory").
 */
export async function runFilesCommand(config: Config, log: (line: string) => void): Promise<number> {
  if (!config.s3) {
    log('Set S3_URL to the bucket to copy UPLOAD_DIR into (docs/file-storage.md).');
    return 2;
  }
  const from = new DiskFileStore(config.uploadDir);
  const to = await openFileStore(config);
  try {
    await to.verify();
    log(`Copying ${from.location} into ${to.location}...`);
    const count = await copyStore(from, to, (key) => log(`  ${key}`));
    log(`${count.copied} file(s) copied, ${count.present} already there.`);
    if (count.ignored.length > 0) log(`Not copied (not names the server gives): ${count.ignored.join(', ')}`);
    return 0;
  } finally {
    to.close();
  }
}

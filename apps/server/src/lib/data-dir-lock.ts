import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Raised when another live process holds the embedded database. */
export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database (PGlite) is single-process: two processes writing one DATA_DIR corrupt
 * it. The first process writes its pid to `DATA_DIR/coldchain.lock`; another refuses to start
 * with a message naming DATA_DIR. A lock left by a process that died is taken over.
 */
export function lockDataDir(dataDir: string, role: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'coldchain.lock');
  try {
    const [pidText, holder] = readFileSync(file, 'utf8').split('\n');
    const pid = Number(pidText);
    if (pid && pid !== process.pid && alive(pid)) {
      throw new DataDirLockedError(
        `The embedded database in ${dataDir} is in use by ${holder || 'another process'} (pid ${pid}). Stop it first, or set DATA_DIR to another folder.`,
      );
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) throw error;
    // No lock file yet.
  }
  writeFileSync(file, `${process.pid}\n${role}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').startsWith(`${process.pid}\n`)) rmSync(file);
    } catch {
      // already gone
    }
  };
}

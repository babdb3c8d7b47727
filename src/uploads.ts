/**
 * Where uploads wait while a request is read: `DATA_DIR/uploads/<pid>-<random>/`, one directory per
 * process, never the OS's temporary directory. A request deletes its file when it ends; a process
 * that was killed (`kill -9`, a crash) cannot, so at start-up every process removes the directories
 * of processes that no longer run (their pid answers ESRCH). Processes sharing a DATA_DIR are on
 * one machine (SQLite requires it), so their pids are comparable.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the upload directories of dead processes, then creates this process's own; returns it. */
export async function openUploadDir(dataDir: string, logger: Logger): Promise<string> {
  const root = path.join(dataDir, 'uploads');
  await mkdir(root, { recursive: true });
  for (const name of await readdir(root)) {
    const pid = Number.parseInt(name, 10);
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    logger.info({ dir: name }, 'removed the uploads of a process that is gone');
  }
  const own = path.join(root, `${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(own);
  return own;
}

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SQLite } from './sqlite-library.ts';

/*
 * One server per SQLite database. Two servers on one DATA_DIR would each keep their own caches and run their
 * own job worker on the same file; SQLite would serialize their writes but nothing else would agree. So
 * `quire serve` takes an exclusive lock for its lifetime, and a second one refuses to start, saying why.
 *
 * The lock is SQLite's own file lock (fcntl) on a small database beside the real one, held by a transaction
 * that stays open: the operating system releases it when the process ends, however it ends, so a server
 * killed with SIGKILL leaves no stale lock behind (a lock *file* would need a staleness guess). The command
 * line's other commands do not take it: they write beside a running server, waiting for their turn.
 */

const LOCK_FILE = 'quire.db.server-lock';
/** Who holds the lock, for the message of the process that is refused (the lock database cannot be read then). */
const OWNER_FILE = 'quire.db.server-owner';

export interface ServerLock {
  release(): void;
}

export class DataDirLockedError extends Error {}

/** Takes the data folder's server lock, or throws DataDirLockedError naming the process that holds it. */
export function lockDataDir(dataDir: string, purpose = 'serve'): ServerLock {
  mkdirSync(dataDir, { recursive: true });
  const lock = new SQLite(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new DataDirLockedError(
      `Another Quire server is using DATA_DIR ${resolve(dataDir)} (${ownerOf(dataDir)}). One server process writes a SQLite database: stop the other one first. ` +
        'To run several server processes, use PostgreSQL (DATABASE_URL); see docs/operations.md.',
    );
  }
  writeFileSync(join(dataDir, OWNER_FILE), `process ${process.pid} (${purpose}) since ${new Date().toISOString()}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(join(dataDir, OWNER_FILE), { force: true });
      lock.close();
    },
  };
}

function ownerOf(dataDir: string): string {
  try {
    return readFileSync(join(dataDir, OWNER_FILE), 'utf8').trim();
  } catch {
    return 'a process that is still starting';
  }
}

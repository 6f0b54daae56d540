import { parentPort } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { ThreadMessage, ThreadReport } from './sqlite-checkpoints.ts';
import { SQLite } from './sqlite-library.ts';

/**
 * The thread of sqlite-checkpoints.ts: a connection per database file of the process, each checkpointing
 * (PASSIVE: copies what the log holds without waiting for, or blocking, the writer) at an interval.
 */
const open = new Map<string, { sqlite: BetterSqlite3.Database; users: number; timer: NodeJS.Timeout }>();

function checkpoint(file: string): void {
  try {
    open.get(file)?.sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (a checkpoint of the writer's own under way) or a file in trouble: the writer's next commit tells.
  }
}

parentPort?.on('message', (message: ThreadMessage) => {
  if (message.type === 'open') {
    const held = open.get(message.file);
    if (held) {
      held.users += 1;
      return;
    }
    try {
      // The file exists (the writer has it open); should it be gone already, no empty one is created.
      const sqlite = new SQLite(message.file, { fileMustExist: true });
      open.set(message.file, { sqlite, users: 1, timer: setInterval(() => checkpoint(message.file), message.intervalMs) });
    } catch {
      parentPort!.postMessage({ type: 'unwatched', file: message.file } satisfies ThreadReport);
    }
    return;
  }
  const held = open.get(message.file);
  if (held && --held.users === 0) {
    open.delete(message.file);
    clearInterval(held.timer);
    held.sqlite.close();
  }
  Atomics.store(message.done, 0, 1);
  Atomics.notify(message.done, 0);
});

import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * WAL checkpoints in a thread of their own (sqlite-checkpoint-thread.ts).
 *
 * SQLite copies its write-ahead log back into the database file (a checkpoint, which ends with fsyncs) in the
 * connection whose commit takes the log past `wal_autocheckpoint` pages, by default 1,000: here, in the event
 * loop. Where an fsync takes 10 ms, as on the machines we measure on, every request stalled for that long
 * about once per hundred comments posted, and over half of a comment's commit time was those stalls. Instead a
 * thread with its own connection to the file checkpoints every CHECKPOINT_INTERVAL_MS without blocking the
 * writer (PASSIVE).
 *
 * While writes never pause, such a checkpoint never quite catches up with the log, and SQLite starts the log
 * over only after one that did; so the connection still checkpoints itself past BACKSTOP_PAGES (about 40 MB of
 * log), rarely, and completely (nothing writes meanwhile). Should the thread fail, the connection goes back
 * to SQLite's default. One thread per process, started with the first database handed to it and not keeping the
 * process alive; a database closes only once the thread has let go of the file (restore replaces it).
 *
 * A database is handed to the thread only once its log has reached HANDOVER_PAGES, half the size at which the
 * connection would checkpoint by itself: a small or quiet database (a test's, a new organization's) never gets
 * there, so nothing checkpoints it in the background, every 200 ms, with fsyncs, for nothing (the test suite took
 * a third longer when every database was handed over at once). The log file keeps its size once grown, so a
 * busy database is handed over for good.
 */
const DEFAULT_PAGES = 1_000;
export const HANDOVER_PAGES = DEFAULT_PAGES / 2;
export const BACKSTOP_PAGES = 10_000;
export const CHECKPOINT_INTERVAL_MS = 200;
/** How often the log of a database not handed to the thread yet is measured. */
export const WATCH_INTERVAL_MS = 1_000;
/** How long closing a database waits for the thread to close its connection to the file. */
const CLOSE_WAIT_MS = 10_000;

export type ThreadMessage =
  | { type: 'open'; file: string; intervalMs: number }
  | { type: 'close'; file: string; done: Int32Array };
/** From the thread: it could not open the file, whose connections then checkpoint as by default. */
export interface ThreadReport {
  type: 'unwatched';
  file: string;
}

let thread: Worker | undefined;
let failed = false;
/** The connections of this process that count on the thread, by file. */
const connections = new Map<string, Set<BetterSqlite3.Database>>();

/**
 * Hands the checkpoints of `file` (opened by `sqlite`, in WAL mode) to the thread once its log has grown to
 * HANDOVER_PAGES; returns what to call before closing it.
 */
export function checkpointInBackground(file: string, sqlite: BetterSqlite3.Database): () => void {
  const handoverBytes = HANDOVER_PAGES * (sqlite.pragma('page_size', { simple: true }) as number);
  let letGo: (() => void) | undefined;
  const watch = setInterval(() => {
    let size = 0;
    try {
      size = statSync(`${file}-wal`).size;
    } catch {
      return; // no log yet
    }
    if (size < handoverBytes || !sqlite.open) return;
    clearInterval(watch);
    letGo = handOver(file, sqlite);
  }, WATCH_INTERVAL_MS);
  watch.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(watch);
    letGo?.();
  };
}

function handOver(file: string, sqlite: BetterSqlite3.Database): () => void {
  const worker = failed ? undefined : start();
  if (!worker) return () => undefined;
  let held = connections.get(file);
  if (!held) connections.set(file, (held = new Set()));
  held.add(sqlite);
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  worker.postMessage({ type: 'open', file, intervalMs: CHECKPOINT_INTERVAL_MS } satisfies ThreadMessage);
  return () => {
    held.delete(sqlite);
    if (held.size === 0) connections.delete(file);
    if (failed || thread !== worker) return;
    const done = new Int32Array(new SharedArrayBuffer(4));
    worker.postMessage({ type: 'close', file, done } satisfies ThreadMessage);
    // Synchronous on purpose: once the database is closed nothing of this process may hold the file open.
    Atomics.wait(done, 0, 0, CLOSE_WAIT_MS);
  };
}

function start(): Worker {
  if (thread) return thread;
  const self = fileURLToPath(import.meta.url);
  const extension = extname(self);
  const entry = new URL(`./sqlite-checkpoint-thread${extension}`, import.meta.url);
  // From the sources (tests, QUIRE_FROM_SOURCE) the thread registers tsx before loading its TypeScript entry.
  const worker =
    extension === '.ts'
      ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true })
      : new Worker(entry);
  const byDefault = (held: Iterable<BetterSqlite3.Database>) => {
    for (const sqlite of held) if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
  };
  const giveUp = () => {
    if (thread !== worker) return;
    thread = undefined;
    failed = true;
    for (const held of connections.values()) byDefault(held);
  };
  worker.on('message', (report: ThreadReport) => byDefault(connections.get(report.file) ?? []));
  worker.on('error', giveUp);
  worker.on('exit', giveUp);
  // After the listeners: adding a 'message' listener refs the thread again.
  worker.unref();
  thread = worker;
  return worker;
}

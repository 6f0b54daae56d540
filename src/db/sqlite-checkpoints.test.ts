import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from './database.ts';
import { BACKSTOP_PAGES, WATCH_INTERVAL_MS } from './sqlite-checkpoints.ts';

async function autocheckpoint(db: ReturnType<typeof createDatabase>): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  return rows[0]!.wal_autocheckpoint;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

test('the checkpoint thread copies the log into the database file while the connection only writes, and lets go of the file on close', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-checkpoints-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'quire.db');
  const db = createDatabase({ sqliteFile: file });
  let closed = false;
  t.after(async () => {
    if (!closed) await db.destroy();
  });
  await sql`create table notes (id integer primary key, body text)`.execute(db);
  // About 3 MB: some 750 pages of log, past the handover (500) and below SQLite's own checkpoint (1,000).
  for (let i = 0; i < 300; i += 1) await sql`insert into notes (body) values (${'w'.repeat(10_000)})`.execute(db);
  assert.ok(await until(async () => (await autocheckpoint(db)) === BACKSTOP_PAGES, WATCH_INTERVAL_MS * 5), 'a grown log is handed to the thread');
  const before = statSync(file).size;
  // About 2 MB in 200 commits more: far below the backstop, so only the thread can have copied them.
  for (let i = 0; i < 200; i += 1) await sql`insert into notes (body) values (${'x'.repeat(10_000)})`.execute(db);
  assert.ok(await until(() => statSync(file).size > before + 1_500_000, 10_000), `the database file stayed at ${statSync(file).size} bytes`);

  // The connection closing last is the one that folds the log in and removes it: the thread's was closed first.
  await db.destroy();
  closed = true;
  assert.equal(existsSync(`${file}-wal`), false, 'no log is left behind');
  assert.equal(existsSync(`${file}-shm`), false);
});

test('two databases on one file share the thread; closing one keeps the other checkpointed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-checkpoints-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'quire.db');
  const first = createDatabase({ sqliteFile: file });
  const second = createDatabase({ sqliteFile: file });
  await sql`create table notes (id integer primary key, body text)`.execute(first);
  for (let i = 0; i < 300; i += 1) await sql`insert into notes (body) values (${'w'.repeat(10_000)})`.execute(first);
  assert.ok(await until(async () => (await autocheckpoint(second)) === BACKSTOP_PAGES, WATCH_INTERVAL_MS * 5), 'both connections are handed over');
  await first.destroy();
  const before = statSync(file).size;
  for (let i = 0; i < 200; i += 1) await sql`insert into notes (body) values (${'y'.repeat(10_000)})`.execute(second);
  assert.ok(await until(() => statSync(file).size > before + 1_500_000, 10_000), `the database file stayed at ${statSync(file).size} bytes`);
  await second.destroy();
  assert.equal(existsSync(`${file}-wal`), false);
});

test('a database whose log stays small is left to SQLite: nothing checkpoints it in the background', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-checkpoints-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'quire.db');
  const db = createDatabase({ sqliteFile: file });
  t.after(() => db.destroy());
  await sql`create table notes (id integer primary key, body text)`.execute(db);
  for (let i = 0; i < 20; i += 1) await sql`insert into notes (body) values (${'z'.repeat(10_000)})`.execute(db);
  const size = statSync(file).size;
  await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS * 2.5));
  assert.equal(await autocheckpoint(db), 1_000, 'SQLite checkpoints as by default');
  assert.equal(statSync(file).size, size, 'the log was not copied into the file');
});

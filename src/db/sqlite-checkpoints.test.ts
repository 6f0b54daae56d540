import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from './database.ts';
import { BACKSTOP_PAGES } from './sqlite-checkpoints.ts';

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
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
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  assert.equal(rows[0]!.wal_autocheckpoint, BACKSTOP_PAGES, 'the connection checkpoints only as a backstop');

  await sql`create table notes (id integer primary key, body text)`.execute(db);
  const before = statSync(file).size;
  // About 2 MB in 200 commits: some 500 pages, far below the backstop, so only the thread can have copied them.
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
  await first.destroy();
  const before = statSync(file).size;
  for (let i = 0; i < 200; i += 1) await sql`insert into notes (body) values (${'y'.repeat(10_000)})`.execute(second);
  assert.ok(await until(() => statSync(file).size > before + 1_500_000, 10_000), `the database file stayed at ${statSync(file).size} bytes`);
  await second.destroy();
  assert.equal(existsSync(`${file}-wal`), false);
});

// @sqlite-run-only: SQLite's library itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { SQLite, sqliteLibrary } from './sqlite-library.ts';

const major = Number(process.versions.node.split('.')[0]);
const installed = (name: string) => {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
};

test('SQLite is better-sqlite3 13 from Node 22 on (npm installs it there), 12 on Node 20', () => {
  const expected = major >= 22 && installed('better-sqlite3-v13') ? /^better-sqlite3-v13@13\./ : /^better-sqlite3@12\./;
  assert.match(sqliteLibrary, expected);
  const db = new SQLite(':memory:');
  try {
    db.exec('create table t (id integer primary key, title text)');
    db.prepare('insert into t (title) values (?)').run('a');
    assert.deepEqual(db.prepare('select id, title from t').raw(true).all(), [[1, 'a']]);
  } finally {
    db.close();
  }
});

// better-sqlite3 12 compiled against Node 24.19+ headers aborts here within a second or two (nodejs/node#65446):
// the garbage collector takes the unused statements while no JavaScript runs, and their destructor asserts.
test('statements the garbage collector takes between turns of the event loop do not end the process', async () => {
  const db = new SQLite(':memory:');
  try {
    db.exec('create table t (id integer primary key, v text)');
    for (let round = 0; round < 20; round += 1) {
      for (let i = 0; i < 5_000; i += 1) db.prepare(`select ${i} + id from t where v = ?`).all('a');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    db.close();
  }
});

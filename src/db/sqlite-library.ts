import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite library: better-sqlite3 13 when it is installed and loads, else better-sqlite3 12.
 *
 * 12 (the dependency, the one release that installs on Node 20) wraps its databases and statements in Node's
 * `node::ObjectWrap`. Compiled against Node 24.19's headers or later, that class's destructor removes an
 * environment cleanup hook and aborts the process (`Assertion failed: (env) != nullptr`, nodejs/node#65446)
 * when a statement is collected by a garbage collection that runs outside JavaScript, i.e. at any moment;
 * `npm ci` compiles it against the running Node's headers whenever it cannot download a prebuilt binary. 13
 * uses Node-API instead and ships its binaries in the package (nothing to compile), but needs Node 22. So,
 * as for isolated-vm (integrations/runtime/isolate-engine.ts), package.json also names 13 as an optional
 * dependency under the alias `better-sqlite3-v13`, which npm skips on Node 20 because of its `engines`. The
 * two have the same API for everything used here; the types are 12's (@types/better-sqlite3).
 *
 * Import SQLite from here, never from 'better-sqlite3' (a type-only import is fine): two copies of SQLite in one
 * process undo each other's file locks (closing a file in one drops the other's POSIX locks on it).
 */
const require = createRequire(import.meta.url);

function load(): { library: typeof BetterSqlite3; name: string } {
  // Its engines say Node 22, and on Node 20 opening a database crashes the process (a segmentation fault, not
  // an exception), so it is not even tried there, should a node_modules installed by a later Node be run by 20.
  if (Number(process.versions.node.split('.')[0]) < 22) return { library: require('better-sqlite3') as typeof BetterSqlite3, name: 'better-sqlite3' };
  try {
    const library = require('better-sqlite3-v13') as typeof BetterSqlite3;
    // 13 loads its binary at the first open, not at require: open one in memory to know it works here.
    new library(':memory:').close();
    return { library, name: 'better-sqlite3-v13' };
  } catch {
    // Not installed, or no binary of it for this platform: 12, whose binary the install downloaded or built.
    return { library: require('better-sqlite3') as typeof BetterSqlite3, name: 'better-sqlite3' };
  }
}

const loaded = load();

export const SQLite = loaded.library;

/** Which package runs SQLite, e.g. `better-sqlite3-v13@13.2.0`: for the tests and whoever reads a report. */
export const sqliteLibrary = `${loaded.name}@${version(loaded.name)}`;

function version(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

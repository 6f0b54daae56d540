import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from './config.ts';
import { describeDatabase } from './db/database.ts';
import { SQLite } from './db/sqlite-library.ts';
import { badRequest } from './platform/errors.ts';

/** What a backup folder holds, besides the database file and the blobs. */
interface Manifest {
  format: 'quire-backup';
  version: 1;
  createdAt: string;
  database: 'sqlite' | 'postgresql';
  /** Where the files were (absent in backups made before FILE_STORAGE: local). With s3, the backup holds none. */
  files?: 'local' | 's3';
  bucket?: string;
}

const MANIFEST = 'quire-backup.json';
const DB_FILE = 'quire.db';

function blobsOf(dir: string): string {
  return join(dir, 'blobs');
}

/** The PostgreSQL URL without its password, for commands printed to a terminal. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/**
 * `quire backup --to DIR`: a consistent copy while the server runs. SQLite: the online backup API copies the
 * database page by page while writers go on (better-sqlite3's `backup()`), then the blobs are copied. Blobs are
 * immutable, named by their hash, written before the row that refers to them and never deleted while a row
 * names them, so every blob the copied database names is on disk when the copy of the folder starts. Files in
 * S3 (FILE_STORAGE=s3) are not copied: the bucket is backed up by the storage's own tools. PostgreSQL: the blobs are copied
 * and the pg_dump command to run is returned (a dump belongs to PostgreSQL's own tools).
 */
export async function backup(config: Config, to: string): Promise<string[]> {
  const target = resolve(to);
  if (existsSync(target) && !statSync(target).isDirectory()) throw badRequest(`quire backup: --to ${target} is a file: back up into a new or empty folder`);
  if (existsSync(target) && readdirSync(target).length > 0) throw badRequest(`quire backup: --to ${target} is not empty: back up into a new or empty folder`);
  const file = join(config.dataDir, DB_FILE);
  if (!config.databaseUrl && !existsSync(file)) throw badRequest(`quire backup: no database to back up at ${file}: check DATA_DIR`);
  mkdirSync(target, { recursive: true });
  const lines: string[] = [];
  if (!config.databaseUrl) {
    const source = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(target, DB_FILE));
    } finally {
      source.close();
    }
    lines.push(`Database copied from ${file}`);
  }
  if (config.fileStorage === 's3' && config.s3) {
    // Objects in the bucket never change and are removed only when no row has ever named them (the collecting
    // sweep), so a copy of the bucket taken any time after this backup holds every file it names.
    lines.push(
      `Files are in the bucket s3://${config.s3.bucket}/${config.s3.prefix} (FILE_STORAGE=s3) and are not copied here: back the bucket up with the storage's own tools (versioning or replication, or a copy such as \`aws s3 sync s3://${config.s3.bucket}/${config.s3.prefix} DIR\`), any time after this backup`,
    );
  } else {
    if (existsSync(blobsOf(config.dataDir))) cpSync(blobsOf(config.dataDir), blobsOf(target), { recursive: true });
    lines.push(`Blobs copied from ${blobsOf(config.dataDir)}`);
  }
  const manifest: Manifest = {
    format: 'quire-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    database: config.databaseUrl ? 'postgresql' : 'sqlite',
    files: config.fileStorage,
    ...(config.fileStorage === 's3' && config.s3 ? { bucket: config.s3.bucket } : {}),
  };
  writeFileSync(join(target, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  if (config.databaseUrl) {
    lines.push(
      'PostgreSQL is backed up by its own tools; run now (the blobs copied above are consistent with any later dump):',
      `  pg_dump --format=custom --file ${join(target, 'quire.pgdump')} '${withoutPassword(config.databaseUrl)}'`,
    );
  }
  lines.push(`Backup written to ${target}`);
  return lines;
}

/**
 * `quire restore --from DIR` into DATA_DIR, with the server stopped. Refuses to replace an existing database
 * unless `force` (a restore over live data is a decision, not a default).
 */
export async function restore(config: Config, from: string, force: boolean): Promise<string[]> {
  const source = resolve(from);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(source, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw badRequest(`quire restore: --from ${source} is not a Quire backup (no readable ${MANIFEST})`);
  }
  if (manifest.format !== 'quire-backup') throw badRequest(`quire restore: --from ${source} is not a Quire backup`);
  const lines: string[] = [];
  if (manifest.database === 'sqlite') {
    if (config.databaseUrl) throw badRequest(`quire restore: --from ${source} holds a SQLite database; unset DATABASE_URL to restore it into DATA_DIR (${config.dataDir})`);
    const file = join(config.dataDir, DB_FILE);
    if (existsSync(file) && !force) throw badRequest(`quire restore: ${describeDatabase({ dataDir: config.dataDir })} exists: stop the server and pass --force to replace it`);
    mkdirSync(config.dataDir, { recursive: true });
    // The old database's write-ahead log must not be replayed onto the restored file.
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    cpSync(join(source, DB_FILE), file);
    lines.push(`Database restored to ${file}`);
  } else {
    if (!config.databaseUrl) throw badRequest(`quire restore: --from ${source} is a backup of a PostgreSQL database: set DATABASE_URL to the database to restore into`);
    lines.push(
      'Restore the PostgreSQL dump with its own tools, into an empty database:',
      `  pg_restore --clean --if-exists --no-owner --dbname '${withoutPassword(config.databaseUrl)}' ${join(source, 'quire.pgdump')}`,
    );
  }
  if (manifest.files === 's3') {
    lines.push(
      `The backup holds no files: they were in the bucket ${manifest.bucket ?? '(its name was not recorded)'}; ${config.fileStorage === 's3' ? `this server reads s3://${config.s3?.bucket}/${config.s3?.prefix}, which must hold them (restore the bucket's copy there if it is another)` : 'set FILE_STORAGE=s3 and the S3_ settings to that bucket (or a copy of it) before starting the server'}`,
    );
    return lines;
  }
  if (existsSync(blobsOf(source))) cpSync(blobsOf(source), blobsOf(config.dataDir), { recursive: true });
  lines.push(`Blobs restored to ${blobsOf(config.dataDir)}`);
  if (config.fileStorage === 's3') lines.push('This server keeps its files in S3 (FILE_STORAGE=s3): run `quire files migrate --to s3` to copy the restored files to the bucket before starting it');
  return lines;
}

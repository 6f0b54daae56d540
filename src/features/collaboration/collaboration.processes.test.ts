import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { freePort } from '../../../test/helpers.ts';
import { createDatabase, migrateToLatest } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';
import { collaborationDocumentName } from './document-name.ts';
import { editorClient, eventually, typeInto, type EditorClient } from './clients.test-support.ts';
import { firstStartAdmin, serveProcess, type ServeProcess } from './processes.test-support.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const pgUrl = process.env.TEST_DATABASE_URL;

/*
 * Issue 31, as deployed: two `quire serve` processes on one PostgreSQL database, both with REDIS_URL; an editor on
 * each edits one page, each sees the other's text through Redis, and the change request holds both. (The Redis
 * test runs two applications in one process; here nothing but the database and Redis is shared.)
 */
describe('editing together across two server processes', { skip: pgUrl ? false : 'several processes share a PostgreSQL database: tested with TEST_DATABASE_URL', timeout: 240_000 }, () => {
  const schema = `procs_${newId(12).toLowerCase()}`;
  let dataDir: string;
  const servers: ServeProcess[] = [];
  const bases: string[] = [];
  const clients: EditorClient[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quire-processes-'));
    // Migrated here, in a schema of this test's own: `quire serve` takes the database from DATABASE_URL alone.
    const db = createDatabase({ url: pgUrl!, schema });
    await migrateToLatest(db, schema);
    await db.destroy();
    const url = new URL(pgUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      servers.push(await serveProcess({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: url.href, REDIS_URL }));
      bases.push(`http://127.0.0.1:${port}`);
    }
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await Promise.all(servers.map((server) => server.stop()));
    const db = createDatabase({ url: pgUrl! });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an editor on each process: both texts reach both, and the change request holds them', async () => {
    // The first process to start found the database empty: its banner has the admin.
    const { api, orgId, cookie } = await firstStartAdmin(bases[0]!, servers[0]!);
    const space = await api('POST', `/orgs/${orgId}/spaces`, { title: 'Docs' });
    const cr = await api('POST', `/spaces/${space.id}/change-requests`, { subject: 'Together' });
    const written = await api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Hello' } }] });
    const pageId = written.changes[0].page.id ?? written.changes[0].page;
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId });

    const a = editorClient(bases[0]!, cookie, name);
    const b = editorClient(bases[1]!, cookie, name);
    clients.push(a, b);
    await Promise.all([a.synced, b.synced]);
    typeInto(a.ydoc, ' from one');
    await eventually(() => b.text().includes('from one'), 8_000, 'the first process’s edit at the second');
    typeInto(b.ydoc, ' and two');
    await eventually(() => a.text() === b.text() && a.text().includes('and two'), 8_000, 'convergence across processes');
    assert.equal(a.text(), 'Hello from one and two');

    const stored = async () => ((await api('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`)).markdown as string | undefined)?.trim();
    await eventually(async () => (await stored()) === 'Hello from one and two', 30_000, 'the stored document').catch(async (error) => {
      throw new Error(`${(error as Error).message}: stored ${JSON.stringify(await stored())}`);
    });
  });
});

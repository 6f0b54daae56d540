import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../../test/helpers.ts';
import { collaborationDocumentName } from './document-name.ts';
import { editorClient, eventually, typeInto, type EditorClient } from './clients.test-support.ts';
import { firstStartAdmin, serveProcess, type ServeProcess } from './processes.test-support.ts';

/*
 * Issue 31's "nothing lost": a real server process is killed (SIGKILL) while two people edit a page; what one had
 * sent and the server had taken but not yet stored, and what the other typed while the server was down, reach the
 * next process when their editors reconnect (the Yjs sync sends each side what the other lacks), and are stored.
 */
describe('a server killed while people edit together', { skip: process.env.TEST_DATABASE_URL ? 'a process per DATA_DIR: tested on SQLite' : false, timeout: 240_000 }, () => {
  let dataDir: string;
  let port: number;
  let server: ServeProcess | undefined;
  const clients: EditorClient[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quire-kill-'));
    port = await freePort();
    server = await serveProcess({ DATA_DIR: dataDir, PORT: String(port) });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing an editor sent: the edits re-sent on reconnect are stored by the next process', async () => {
    const base = `http://127.0.0.1:${port}`;
    // The admin's browser session, through the first start's sign-in link.
    const { api, orgId, cookie } = await firstStartAdmin(base, server!);

    const space = await api('POST', `/orgs/${orgId}/spaces`, { title: 'Docs' });
    const cr = await api('POST', `/spaces/${space.id}/change-requests`, { subject: 'Together' });
    const written = await api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Hello' } }] });
    const pageId = written.changes[0].page.id ?? written.changes[0].page;
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId });
    const stored = async () => ((await api('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`)).markdown as string | undefined)?.trim();

    const a = editorClient(base, cookie, name);
    const b = editorClient(base, cookie, name);
    clients.push(a, b);
    await Promise.all([a.synced, b.synced]);
    typeInto(a.ydoc, ' one');
    await eventually(async () => (await stored()) === 'Hello one', 20_000, 'the first edit stored');

    // The server takes the next edit (the editor has nothing unsent) and is killed before its store, 2 s later.
    typeInto(a.ydoc, ' two');
    await eventually(() => a.provider.unsyncedChanges === 0 && b.text().includes('two'), 8_000, 'the second edit taken by the server');
    server!.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    // Typed while the server is down.
    typeInto(b.ydoc, ' three');

    server = await serveProcess({ DATA_DIR: dataDir, PORT: String(port) });
    await eventually(() => a.text() === b.text() && a.text().includes('three'), 30_000, 'the editors reconnected and converged');
    assert.equal(a.text(), 'Hello one two three');
    await eventually(async () => (await stored()) === 'Hello one two three', 30_000, 'every edit stored by the new process').catch(async (error) => {
      throw new Error(`${(error as Error).message}: stored ${JSON.stringify(await stored())}`);
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpace, markdown, writeContent } from '../../../test/factories.ts';
import { collaborationDocumentName } from './document-name.ts';
import { editorClient, eventually, sessionCookie, typeInto, type EditorClient } from './clients.test-support.ts';
import { COLLABORATION_PATH } from './websocket.ts';

describe('editing together', () => {
  let t: TestServer;
  let base: string;
  const clients: EditorClient[] = [];
  const open = (cookie: string, name: string, options?: { origin?: string }) => {
    const client = editorClient(base, cookie, name, options);
    clients.push(client);
    return client;
  };

  before(async () => {
    t = await startServer();
    base = await listenOnRandomPort(t);
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await t.close();
  });

  /** A space with a change request holding a page "Guide" with one paragraph; the writer and a viewer. */
  async function setUp() {
    const space = await buildSpace(t, { title: 'Docs' });
    const writer = await t.member('edit');
    const viewer = await t.member('read');
    const cr = await buildChangeRequest(t, space.id);
    const [pageId] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: markdown('Hello') }]);
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId: pageId! });
    const pageDocument = async () => (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`, { token: writer.token })).body;
    return { space, cr, pageId: pageId!, name, writer, viewer, pageDocument };
  }

  it('two editors converge, and the change request holds both texts within seconds, readable through the API', async () => {
    const s = await setUp();
    const cookie = await sessionCookie(t, s.writer.userId);
    const [a, b] = [open(cookie, s.name), open(await sessionCookie(t, t.admin.userId), s.name)];
    await Promise.all([a.synced, b.synced]);
    assert.equal(a.text(), 'Hello', 'the server seeded the document from the page');
    typeInto(a.ydoc, ' from A');
    typeInto(b.ydoc, ' and B');
    await eventually(() => a.text() === b.text() && a.text().includes('from A') && a.text().includes('and B'), 8_000, 'convergence');
    const converged = a.text();
    await eventually(async () => (await s.pageDocument()).markdown?.trim() === converged, 15_000, 'the stored document');
  });

  it('a write through the API reaches the open editors', async () => {
    const s = await setUp();
    const a = open(await sessionCookie(t, s.writer.userId), s.name);
    await a.synced;
    await writeContent(t, s.space.id, s.cr.id, [{ operation: 'update_page', page: s.pageId, document: markdown('Rewritten by a script') }]);
    await eventually(() => a.text() === 'Rewritten by a script', 8_000, 'the API write in the editor');
  });

  it('a viewer follows read-only: what they type reaches nobody', async () => {
    const s = await setUp();
    const editor = open(await sessionCookie(t, s.writer.userId), s.name);
    const viewer = open(await sessionCookie(t, s.viewer.userId), s.name);
    await Promise.all([editor.synced, viewer.synced]);
    typeInto(viewer.ydoc, ' vandalism');
    await eventually(() => viewer.refused > 0, 8_000, 'the server refusing the viewer\'s update');
    typeInto(editor.ydoc, ' edited');
    await eventually(() => viewer.text().includes('edited'), 8_000, 'the editor text at the viewer');
    assert.equal(editor.text(), 'Hello edited');
  });

  it('a stranger, another organization and a signed-out socket are refused without learning whether the page exists', async () => {
    const s = await setUp();
    const outsider = await t.outsider();
    const refused = open(await sessionCookie(t, outsider.userId, outsider.organizationId), s.name);
    await assert.rejects(refused.synced, /refused/);
    const missing = open(await sessionCookie(t, s.writer.userId), s.name.replace(s.pageId, 'nosuchpage'));
    await assert.rejects(missing.synced, /refused/);
    const status = await upgradeStatus(`${base.replace(/^http/, 'ws')}${COLLABORATION_PATH}`, {});
    assert.equal(status, 401);
    const foreign = await upgradeStatus(`${base.replace(/^http/, 'ws')}${COLLABORATION_PATH}`, { cookie: await sessionCookie(t, s.writer.userId), origin: 'https://evil.test' });
    assert.equal(foreign, 403);
  });

  it('a malformed or oversized message closes that connection only', async () => {
    const s = await setUp();
    const cookie = await sessionCookie(t, s.writer.userId);
    const good = open(cookie, s.name);
    await good.synced;
    const url = `${base.replace(/^http/, 'ws')}${COLLABORATION_PATH}`;
    for (const payload of [Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), Buffer.alloc(5 * 1024 * 1024, 1)]) {
      const ws = new WebSocket(url, { headers: { cookie } });
      await new Promise((resolve) => ws.once('open', resolve));
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      ws.send(payload);
      // ws answers an oversized frame with 1009; Hocuspocus closes on a message it cannot decode.
      assert.ok((await closed) > 0);
    }
    typeInto(good.ydoc, ' still fine');
    await eventually(async () => (await s.pageDocument()).markdown?.trim() === 'Hello still fine', 15_000, 'the good editor still saving');
  });

  it('revoked access closes the connection within seconds', async () => {
    const s = await setUp();
    const member = await t.member('edit');
    const client = open(await sessionCookie(t, member.userId), s.name);
    await client.synced;
    const removed = await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${member.userId}`);
    assert.ok(removed.status < 300, JSON.stringify(removed.body));
    await eventually(() => client.closes.length > 0, 10_000, 'the connection closed');
  });
});

/** The HTTP status an upgrade request is answered with (101 when accepted). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', () => undefined);
  });
}

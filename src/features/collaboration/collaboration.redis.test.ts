import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../app.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpace, markdown, writeContent } from '../../../test/factories.ts';
import { collaborationDocumentName } from './document-name.ts';
import { editorClient, eventually, sessionCookie, typeInto, type EditorClient } from './clients.test-support.ts';

// The local Redis (127.0.0.1:6379), as the sign-in throttle's test uses it.
const REDIS_URL = 'redis://127.0.0.1:6379';

/*
 * Two servers on one database sharing REDIS_URL, each with its own Hocuspocus: an editor connected to one and
 * an editor connected to the other edit one page, and each sees the other's text through the Redis relay (no
 * stored document in between: the store waits seconds, the relay milliseconds).
 */
describe('editing together across two servers sharing REDIS_URL', { timeout: 120_000 }, () => {
  let t: TestServer;
  let two: Awaited<ReturnType<typeof buildApp>>;
  let baseOne: string;
  let baseTwo: string;
  const clients: EditorClient[] = [];

  before(async () => {
    t = await startServer({ env: { REDIS_URL } });
    baseOne = await listenOnRandomPort(t);
    two = await buildApp({ config: t.config, db: t.db, clock: t.clock });
    await two.listen({ port: 0, host: '127.0.0.1' });
    baseTwo = `http://127.0.0.1:${(two.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await two?.close();
    await t?.close();
  });

  it('an editor on each server: both texts reach both, and the change request holds them', async () => {
    const space = await buildSpace(t, { title: 'Docs' });
    const writer = await t.member('edit');
    const cr = await buildChangeRequest(t, space.id);
    const [pageId] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: markdown('Hello') }]);
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId: pageId! });
    const a = editorClient(baseOne, await sessionCookie(t, writer.userId), name);
    const b = editorClient(baseTwo, await sessionCookie(t, t.admin.userId), name);
    clients.push(a, b);
    await Promise.all([a.synced, b.synced]);
    assert.equal(b.text(), 'Hello');

    typeInto(a.ydoc, ' from one');
    await eventually(() => b.text().includes('from one'), 8_000, 'the first server’s edit at the second');
    typeInto(b.ydoc, ' and two');
    await eventually(() => a.text() === b.text() && a.text().includes('and two'), 8_000, 'convergence across servers');

    const stored = async () =>
      (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`, { token: writer.token })).body.markdown?.trim();
    await eventually(async () => (await stored()) === a.text(), 20_000, 'the stored document').catch(async (error) => {
      throw new Error(`${(error as Error).message}: stored ${JSON.stringify(await stored())}, editors ${JSON.stringify(a.text())} / ${JSON.stringify(b.text())}`);
    });
  });

  it('two servers stopped at once with a page edited through both stop quietly, the page stored', async () => {
    const space = await buildSpace(t, { title: 'Docs' });
    const cr = await buildChangeRequest(t, space.id);
    const [pageId] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: markdown('Hello') }]);
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId: pageId! });
    const servers = [await buildApp({ config: t.config, db: t.db, clock: t.clock }), await buildApp({ config: t.config, db: t.db, clock: t.clock })];
    const cookie = await sessionCookie(t, t.admin.userId);
    for (const server of servers) {
      await server.listen({ port: 0, host: '127.0.0.1' });
      clients.push(editorClient(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, cookie, name));
    }
    const [a, b] = clients.slice(-2) as [EditorClient, EditorClient];
    await Promise.all([a.synced, b.synced]);
    // An edit through each server: each has a store of the page waiting.
    typeInto(a.ydoc, ' and');
    typeInto(b.ydoc, ' bye', 0);
    await eventually(() => a.text() === b.text() && a.text().length === 'Hello and bye'.length, 8_000, 'both edits on both servers');
    // Each stores the page as it stops: one finds it locked in Redis by the other (the extension then stopped that
    // store with an error Hocuspocus printed with its stack); a second later the page, unloaded, was unsubscribed
    // from connections the close had ended ("Connection is closed").
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      await Promise.all(servers.map((server) => server.close()));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      console.error = error;
    }
    assert.deepEqual(logged, []);
    const stored = await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`);
    assert.equal(stored.body.markdown?.trim(), a.text());
  });

  it('who is in which page of the change request is answered alike by both servers', async () => {
    const space = await buildSpace(t, { title: 'Docs' });
    const writer = await t.member('edit');
    const cr = await buildChangeRequest(t, space.id);
    const [pageId] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: markdown('Hello') }]);
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId: pageId! });
    const a = editorClient(baseOne, await sessionCookie(t, writer.userId), name);
    clients.push(a);
    await a.synced;
    const onTwo = async () => {
      const res = await two.inject({ method: 'GET', url: `/v1/spaces/${space.id}/change-requests/${cr.id}/presence`, headers: { authorization: `Bearer ${t.admin.token}` } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { items: { page: { id: string }; people: { user: { id: string }; access: string }[] }[] };
    };
    await eventually(async () => JSON.stringify((await onTwo()).items.map((i) => [i.page.id, i.people.map((p) => `${p.user.id} ${p.access}`)])) === JSON.stringify([[pageId, [`${writer.userId} edit`]]]), 8_000, 'the editor on the first server, seen by the second');
    a.destroy();
    await eventually(async () => (await onTwo()).items.length === 0, 8_000, 'the editor gone, for the second server too');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, markdown, writeContent } from '../../../test/factories.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { editorClient, eventually, sessionCookie, type EditorClient } from './clients.test-support.ts';
import { collaborationDocumentName } from './document-name.ts';

interface Presence {
  object: string;
  items: { page: { id: string; title: string }; people: { user: { id: string; displayName: string }; access: 'edit' | 'view' }[] }[];
}

describe('who is in which page of a change request (getChangeRequestPresence)', () => {
  let t: TestServer;
  let base: string;
  const clients: EditorClient[] = [];

  before(async () => {
    t = await startServer();
    base = await listenOnRandomPort(t);
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await t.close();
  });

  async function setUp() {
    const space = await buildSpace(t, { title: 'Docs' });
    const writer = await t.member('edit');
    const viewer = await t.member('read');
    const cr = await buildChangeRequest(t, space.id);
    const [guide, faq] = await writeContent(t, space.id, cr.id, [
      { operation: 'insert_page', title: 'Guide', document: markdown('Hello') },
      { operation: 'insert_page', title: 'FAQ', document: markdown('Questions') },
    ]);
    const nameOf = (pageId: string) => collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId });
    const presence = async (token?: string) => ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.number}/presence`, token ? { token } : {})) as Presence;
    return { space, cr, guide: guide!, faq: faq!, nameOf, writer, viewer, presence };
  }

  const open = async (userId: string, name: string) => {
    const client = editorClient(base, await sessionCookie(t, userId), name);
    clients.push(client);
    await client.synced;
    return client;
  };

  const summary = (presence: Presence) => presence.items.map((item) => [item.page.title, item.people.map((p) => `${p.user.displayName} ${p.access}`)]);

  it('lists each page someone has open, with who edits and who follows read-only, and forgets who closed it', async () => {
    const s = await setUp();
    assert.deepEqual(await s.presence(), { object: 'change-request-presence', items: [] });
    const names = {
      writer: ok(await t.api('GET', '/v1/user', { token: s.writer.token })).displayName as string,
      viewer: ok(await t.api('GET', '/v1/user', { token: s.viewer.token })).displayName as string,
      admin: ok(await t.api('GET', '/v1/user')).displayName as string,
    };
    const writerInGuide = await open(s.writer.userId, s.nameOf(s.guide));
    // Two tabs of one person are one person.
    await open(s.writer.userId, s.nameOf(s.guide));
    const viewerInGuide = await open(s.viewer.userId, s.nameOf(s.guide));
    await open(t.admin.userId, s.nameOf(s.faq));

    const seen = await s.presence(s.viewer.token);
    assert.deepEqual(summary(seen), [
      ['FAQ', [`${names.admin} edit`]],
      ['Guide', [`${names.writer} edit`, `${names.viewer} view`].sort((a, b) => a.localeCompare(b))],
    ]);
    assert.equal(seen.items[1]!.page.id, s.guide);

    // The writer's first tab closes: the second keeps them in the page. The viewer's last one closes: gone.
    writerInGuide.destroy();
    viewerInGuide.destroy();
    await eventually(async () => JSON.stringify(summary(await s.presence())) === JSON.stringify([['FAQ', [`${names.admin} edit`]], ['Guide', [`${names.writer} edit`]]]), 8_000, 'the viewer gone, the writer still in');
  });

  it('is answered 404 to whoever cannot see the change request, and 401 without a token', async () => {
    const s = await setUp();
    await open(s.writer.userId, s.nameOf(s.guide));
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${s.space.id}/change-requests/${s.cr.id}/presence`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${s.space.id}/change-requests/nosuchcr/presence`), 404);
    assertError(await t.api('GET', `/v1/spaces/${s.space.id}/change-requests/${s.cr.id}/presence`, { token: null }), 401);
  });

  it('leaves out a page deleted from the change request while someone had it open', async () => {
    const s = await setUp();
    await open(s.writer.userId, s.nameOf(s.faq));
    await writeContent(t, s.space.id, s.cr.id, [{ operation: 'delete_page', page: s.faq }]);
    assert.deepEqual((await s.presence()).items, []);
  });
});

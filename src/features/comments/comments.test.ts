import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildComment, buildPage, buildSpace, buildSpaceWithPages, editLive, markdown } from '../../../test/factories.ts';

describe('comments on a space', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const post = (spaceId: string, body: unknown, token?: string, query = '') => t.api('POST', `/v1/spaces/${spaceId}/comments${query}`, { body, ...(token ? { token } : {}) });
  const get = (spaceId: string, id: string, query = '', token?: string) => t.api('GET', `/v1/spaces/${spaceId}/comments/${id}${query}`, token ? { token } : {});
  const put = (spaceId: string, id: string, body: unknown, token?: string) => t.api('PUT', `/v1/spaces/${spaceId}/comments/${id}`, { body, ...(token ? { token } : {}) });
  const list = (spaceId: string, query = '', token?: string) => t.api('GET', `/v1/spaces/${spaceId}/comments${query}`, token ? { token } : {});

  describe('postCommentInSpace', () => {
    test('a commenter posts a comment in markdown; it is stored as a document and read back in either form', async () => {
      const space = await buildSpace(t);
      const commenter = await t.member('comment');
      const comment = ok(await post(space.id, { body: markdown('Is this **right**? See [the guide](https://example.com/guide).') }, commenter.token));
      assert.equal(comment.object, 'comment');
      assert.equal(typeof comment.id, 'string');
      assert.equal(comment.postedBy.id, commenter.userId);
      assert.equal(comment.postedAt, t.clock.now().toISOString());
      assert.equal(comment.editedAt, undefined);
      assert.equal(comment.status, 'open');
      assert.equal(comment.resolvedAt, undefined);
      assert.equal(comment.replies, 0);
      assert.deepEqual(comment.reactions, []);
      assert.deepEqual(comment.target, { space: space.id, revision: space.revision });
      assert.equal(comment.urls.location, `http://quire.test/v1/spaces/${space.id}/comments/${comment.id}`);
      assert.deepEqual(comment.permissions, { view: true, edit: true, reply: true, delete: true });
      assert.equal(comment.body.document.object, 'document', 'the default output is the JSON document');
      assert.equal(comment.body.markdown, undefined);

      assert.deepEqual(ok(await get(space.id, comment.id, '', commenter.token)), comment, 'the answer to the post is the comment as stored');
      const asMarkdown = ok(await get(space.id, comment.id, '?format=markdown', commenter.token));
      assert.equal(asMarkdown.body.markdown.trim(), 'Is this **right**? See [the guide](https://example.com/guide).');
      assert.equal(asMarkdown.body.document, undefined);
      const events = await t.db.selectFrom('events').select(['type', 'payload']).where('type', '=', 'comment_created').execute();
      assert.ok(events.some((e) => JSON.parse(e.payload).commentId === comment.id), 'the post is recorded as an event');
    });

    test('a new comment names its author as they are now, also right after their name changed', async () => {
      const space = await buildSpace(t);
      const commenter = await t.member('comment');
      const first = ok(await post(space.id, { body: markdown('First') }, commenter.token));
      assert.equal(first.postedBy.id, commenter.userId);
      assert.equal(first.postedBy.email, commenter.email);
      await t.db.updateTable('users').set({ display_name: 'Renamed Commenter' }).where('id', '=', commenter.userId).execute();
      const second = ok(await post(space.id, { body: markdown('Second') }, commenter.token));
      assert.equal(second.postedBy.displayName, 'Renamed Commenter');
      assert.deepEqual(ok(await get(space.id, second.id, '', commenter.token)).postedBy, second.postedBy, 'the answer names the author as stored');
    });

    test('a body may be the JSON document; it is checked like any document', async () => {
      const space = await buildSpace(t);
      const document = {
        object: 'document',
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Plain words' }] }] }],
      };
      const comment = ok(await post(space.id, { body: { document } }));
      assert.deepEqual(comment.body.document.nodes[0].nodes[0].leaves[0].text, 'Plain words');
      const md = ok(await get(space.id, comment.id, '?format=markdown'));
      assert.equal(md.body.markdown.trim(), 'Plain words');

      const broken = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf' }] }] }] };
      assertError(await post(space.id, { body: { document: broken } }), 400, 'body/body/document/nodes/0');
      assertError(await post(space.id, { body: { document: { object: 'document', nodes: [] } } }), 400, 'body/body/document');
    });

    test('a body needs exactly one of markdown or document, with some content', async () => {
      const space = await buildSpace(t);
      assertError(await post(space.id, {}), 400, 'body');
      assertError(await post(space.id, { body: {} }), 400, 'body/body');
      assertError(await post(space.id, { body: { markdown: 'a', document: { object: 'document', nodes: [] } } }), 400, 'body/body');
      assertError(await post(space.id, { body: markdown('   ') }), 400, 'body/body/markdown');
      assertError(await post(space.id, { body: { markdown: 42 } }), 400, 'body/body/markdown');
      assertError(await post(space.id, { body: markdown('x'.repeat(100_001)) }), 400, 'body/body/markdown');
    });

    test('a comment may be about a page of the current revision, and a node of it', async () => {
      const { space, pages } = await buildSpaceWithPages(t, 'Getting started', 'Reference');
      const child = await buildPage(t, space.id, { title: 'Install', parent: pages[0]!, markdown: 'Run the installer.' });
      const comment = ok(await post(space.id, { page: child, body: markdown('Which version?') }));
      assert.equal(comment.target.page.id, child);
      assert.equal(comment.target.page.title, 'Install');
      assert.equal(comment.target.page.path, 'getting-started/install');
      assert.equal(comment.target.page.outdated, false);
      assert.equal(typeof comment.target.page.createdAt, 'string');
      assert.equal(typeof comment.target.page.updatedAt, 'string');

      const page = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pages[1]}`));
      const key = page.document.nodes[1].key as string;
      const onNode = ok(await post(space.id, { page: pages[1], node: key, body: markdown('Typo here') }));
      assert.deepEqual(onNode.target.node, { id: key, preview: 'A second paragraph of Reference.' });
      assert.deepEqual(ok(await get(space.id, onNode.id)), onNode, 'the answer to the post is the comment as stored');
      assert.equal(onNode.target.page.path, 'reference');
    });

    test('a page that is not in the revision, or a node that is not in the page, is refused with 400', async () => {
      const { space, pages } = await buildSpaceWithPages(t, 'Only page');
      assertError(await post(space.id, { page: 'no-such-page', body: markdown('Hm') }), 400, 'body/page');
      assertError(await post(space.id, { node: 'some-node', body: markdown('Hm') }), 400, 'body/node');
      assertError(await post(space.id, { page: pages[0], node: 'no-such-node', body: markdown('Hm') }), 400, 'body/node');
      const other = await buildSpace(t);
      assertError(await post(other.id, { page: pages[0], body: markdown('Hm') }), 400, 'body/page');
    });

    test('a reader cannot comment (403); an outsider is told the space does not exist (404)', async () => {
      const space = await buildSpace(t);
      const reader = await t.member('read');
      assertError(await post(space.id, { body: markdown('Hi') }, reader.token), 403, 'comment role');
      const stranger = await t.outsider();
      assertError(await post(space.id, { body: markdown('Hi') }, stranger.token), 404);
      assertError(await post('no-such-space', { body: markdown('Hi') }), 404);
    });
  });

  describe('target.page.outdated', () => {
    test('a comment becomes outdated when its page is edited, renamed or deleted', async () => {
      const { space, pages } = await buildSpaceWithPages(t, 'Alpha', 'Beta', 'Gamma');
      const [alpha, beta, gamma] = pages as [string, string, string];
      const onAlpha = ok(await post(space.id, { page: alpha, body: markdown('On alpha') }));
      const onBeta = ok(await post(space.id, { page: beta, body: markdown('On beta') }));
      const onGamma = ok(await post(space.id, { page: gamma, body: markdown('On gamma') }));
      await editLive(t, space.id, [
        { operation: 'update_page', page: alpha, document: markdown('Rewritten alpha.') },
        { operation: 'update_page', page: beta, title: 'Beta renamed' },
        { operation: 'delete_page', page: gamma },
      ]);
      const a = ok(await get(space.id, onAlpha.id));
      assert.equal(a.target.page.outdated, true, 'the content changed');
      const b = ok(await get(space.id, onBeta.id));
      assert.equal(b.target.page.outdated, true, 'the title changed');
      assert.equal(b.target.page.title, 'Beta renamed', 'the page is shown as it is now');
      const g = ok(await get(space.id, onGamma.id));
      assert.deepEqual(g.target.page, { id: gamma, title: 'Gamma', path: 'gamma', outdated: true }, 'a deleted page is shown as it was');
      const fresh = ok(await post(space.id, { page: alpha, body: markdown('On the new alpha') }));
      assert.equal(fresh.target.page.outdated, false);
    });
  });

  describe('getCommentInSpace', () => {
    test('a reader reads a comment; an unknown comment is 404, an outsider 404', async () => {
      const space = await buildSpace(t);
      const comment = ok(await post(space.id, { body: markdown('Hello') }));
      const reader = await t.member('read');
      const read = ok(await get(space.id, comment.id, '', reader.token));
      assert.equal(read.id, comment.id);
      assert.deepEqual(read.permissions, { view: true, edit: false, reply: false, delete: false });
      assertError(await get(space.id, 'no-such-comment'), 404, 'no-such-comment');
      const stranger = await t.outsider();
      assertError(await get(space.id, comment.id, '', stranger.token), 404);
      assertError(await get(space.id, comment.id, '?format=html'), 400, 'format');
    });

    test('a comment of another space, or of a change request, is not found through this space', async () => {
      const a = await buildSpace(t);
      const b = await buildSpace(t);
      const comment = ok(await post(a.id, { body: markdown('In A') }));
      assertError(await get(b.id, comment.id), 404);
      const cr = await buildChangeRequest(t, a.id);
      const inCr = await buildComment(t, a.id, { markdown: 'In the CR', changeRequestId: cr.id });
      assertError(await get(a.id, inCr.id), 404);
    });
  });

  describe('updateCommentInSpace', () => {
    test('resolving sets status, resolvedAt and resolvedBy; reopening clears them', async () => {
      const space = await buildSpace(t);
      const author = await t.member('comment');
      const other = await t.member('comment');
      const comment = ok(await post(space.id, { body: markdown('Please fix') }, author.token));
      t.clock.advance(60_000);
      const resolved = ok(await put(space.id, comment.id, { resolved: true }, other.token));
      assert.equal(resolved.status, 'resolved');
      assert.equal(resolved.resolvedAt, t.clock.now().toISOString());
      assert.equal(resolved.resolvedBy.id, other.userId);
      assert.equal(resolved.editedAt, undefined, 'resolving is not editing');
      t.clock.advance(60_000);
      const again = ok(await put(space.id, comment.id, { resolved: true }));
      assert.equal(again.resolvedBy.id, other.userId, 'resolving a resolved comment changes nothing');
      assert.equal(again.resolvedAt, resolved.resolvedAt);
      const reopened = ok(await put(space.id, comment.id, { resolved: false }, author.token));
      assert.equal(reopened.status, 'open');
      assert.equal(reopened.resolvedAt, undefined);
      assert.equal(reopened.resolvedBy, undefined);
    });

    test('only its author edits a comment: editedAt is set; others, admins included, get 403', async () => {
      const space = await buildSpace(t);
      const author = await t.member('comment');
      const other = await t.member('comment');
      const comment = ok(await post(space.id, { body: markdown('First draft') }, author.token));
      t.clock.advance(1000);
      const edited = ok(await put(space.id, comment.id, { body: markdown('Second draft') }, author.token));
      assert.equal(edited.editedAt, t.clock.now().toISOString());
      assert.equal((await get(space.id, comment.id, '?format=markdown')).body.body.markdown.trim(), 'Second draft');
      assertError(await put(space.id, comment.id, { body: markdown('Hijack') }, other.token), 403, 'author');
      assertError(await put(space.id, comment.id, { body: markdown('Hijack') }), 403, 'author');
      const seenByOther = ok(await get(space.id, comment.id, '', other.token));
      assert.deepEqual(seenByOther.permissions, { view: true, edit: false, reply: true, delete: false });
      const seenByAdmin = ok(await get(space.id, comment.id));
      assert.deepEqual(seenByAdmin.permissions, { view: true, edit: false, reply: true, delete: true });
    });

    test('a reader can neither resolve nor react; unknown comments are 404; bad input names the field', async () => {
      const space = await buildSpace(t);
      const comment = ok(await post(space.id, { body: markdown('Hi') }));
      const reader = await t.member('read');
      assertError(await put(space.id, comment.id, { resolved: true }, reader.token), 403, 'comment role');
      assertError(await put(space.id, comment.id, { addedReactions: ['👍'] }, reader.token), 403, 'comment role');
      assertError(await put(space.id, 'no-such-comment', { resolved: true }), 404);
      assertError(await put(space.id, comment.id, { resolved: 'yes' }), 400, 'body/resolved');
      assertError(await put(space.id, comment.id, { addedReactions: ['not an emoji'] }), 400, 'body/addedReactions/0');
      const stranger = await t.outsider();
      assertError(await put(space.id, comment.id, { resolved: true }, stranger.token), 404);
      const unchanged = ok(await put(space.id, comment.id, {}));
      assert.equal(unchanged.status, 'open');
    });
  });

  describe('deleteCommentInSpace', () => {
    test('its author deletes a comment, with its replies; then it is 404, and deleting again is 204', async () => {
      const space = await buildSpace(t);
      const author = await t.member('comment');
      const comment = ok(await post(space.id, { body: markdown('Bye') }, author.token));
      const reply = ok(await t.api('POST', `/v1/spaces/${space.id}/comments/${comment.id}/replies`, { body: { body: markdown('Reply') } }));
      await put(space.id, comment.id, { addedReactions: ['🎉'] });
      const res = await t.api('DELETE', `/v1/spaces/${space.id}/comments/${comment.id}`, { token: author.token });
      assert.equal(res.status, 204);
      assert.equal(res.body, undefined);
      assertError(await get(space.id, comment.id), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/comments/${comment.id}/replies/${reply.id}`), 404);
      assert.equal((await t.db.selectFrom('comment_replies').select('id').where('comment_id', '=', comment.id).execute()).length, 0);
      assert.equal((await t.db.selectFrom('comment_reactions').select('emoji').where('comment_id', '=', comment.id).execute()).length, 0);
      assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/comments/${comment.id}`, { token: author.token })).status, 204);
      assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/comments/never-was`)).status, 204);
    });

    test('a space admin deletes anyone’s comment; another commenter cannot (403); for an outsider it is not there (204)', async () => {
      const space = await buildSpace(t);
      const author = await t.member('comment');
      const other = await t.member('edit');
      const comment = ok(await post(space.id, { body: markdown('Mine') }, author.token));
      assertError(await t.api('DELETE', `/v1/spaces/${space.id}/comments/${comment.id}`, { token: other.token }), 403, 'author or a space admin');
      const stranger = await t.outsider();
      assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/comments/${comment.id}`, { token: stranger.token })).status, 204);
      const admin = await t.member('admin');
      assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/comments/${comment.id}`, { token: admin.token })).status, 204);
      assertError(await get(space.id, comment.id), 404);
    });
  });

  describe('listCommentsInSpace', () => {
    async function seed() {
      const { space, pages } = await buildSpaceWithPages(t, 'One', 'Two');
      const alice = await t.member('comment');
      const bob = await t.member('comment');
      const carol = await t.member('comment');
      const ids: string[] = [];
      const by = [alice, bob, carol, alice, bob];
      for (let i = 0; i < by.length; i++) {
        t.clock.advance(1000);
        const c = ok(await post(space.id, { body: markdown(`Comment ${i}`), ...(i % 2 === 0 ? { page: pages[0] } : {}) }, by[i]!.token));
        ids.push(c.id);
      }
      return { space, pages, alice, bob, carol, ids };
    }

    test('newest first by default, oldest first with order=asc, every comment counted', async () => {
      const { space, ids } = await seed();
      const desc = ok(await list(space.id));
      assert.equal(desc.count, 5);
      assert.deepEqual(desc.items.map((c: { id: string }) => c.id), [...ids].reverse());
      assert.equal(desc.next, undefined);
      const asc = ok(await list(space.id, '?order=asc'));
      assert.deepEqual(asc.items.map((c: { id: string }) => c.id), ids);
      assertError(await list(space.id, '?order=sideways'), 400, 'order');
    });

    test('filters: status, targetPage, several authors', async () => {
      const { space, pages, alice, bob, ids } = await seed();
      await put(space.id, ids[1]!, { resolved: true });
      await put(space.id, ids[2]!, { resolved: true });
      const ids_ = (res: { body: { items: { id: string }[] } }) => res.body.items.map((c) => c.id);
      assert.deepEqual(ids_(await list(space.id, '?status=resolved&order=asc')), [ids[1], ids[2]]);
      assert.deepEqual(ids_(await list(space.id, '?status=open&order=asc')), [ids[0], ids[3], ids[4]]);
      assert.equal((await list(space.id, '?status=all')).body.count, 5);
      assert.deepEqual(ids_(await list(space.id, `?targetPage=${pages[0]}&order=asc`)), [ids[0], ids[2], ids[4]]);
      assert.deepEqual(ids_(await list(space.id, `?targetPage=${pages[1]}`)), []);
      assert.deepEqual(ids_(await list(space.id, `?authors=${alice.userId}&order=asc`)), [ids[0], ids[3]]);
      assert.deepEqual(ids_(await list(space.id, `?authors=${alice.userId}&authors=${bob.userId}&order=asc`)), [ids[0], ids[1], ids[3], ids[4]]);
      const combined = ok(await list(space.id, `?authors=${alice.userId}&authors=${bob.userId}&status=open&targetPage=${pages[0]}`));
      assert.equal(combined.count, 2);
      assert.deepEqual(combined.items.map((c: { id: string }) => c.id), [ids[4], ids[0]]);
      assertError(await list(space.id, '?status=closed'), 400, 'status');
    });

    test('keyset pages: each comment once, in order; a cursor of other filters is refused', async () => {
      const { space, ids, alice } = await seed();
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = ok(await list(space.id, `?order=asc&limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`));
        assert.equal(res.count, 5);
        assert.ok(res.items.length <= 2);
        seen.push(...res.items.map((c: { id: string }) => c.id));
        page = res.next?.page;
      } while (page);
      assert.deepEqual(seen, ids);
      const first = ok(await list(space.id, '?limit=1'));
      assertError(await list(space.id, `?limit=1&order=asc&page=${encodeURIComponent(first.next.page)}`), 400, 'page');
      assertError(await list(space.id, `?limit=1&authors=${alice.userId}&page=${encodeURIComponent(first.next.page)}`), 400, 'page');
      assertError(await list(space.id, '?limit=0'), 400, 'limit');
    });

    test('comments with the same posting time still page without loss or repetition', async () => {
      const space = await buildSpace(t);
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add(ok(await post(space.id, { body: markdown(`Same time ${i}`) })).id);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = ok(await list(space.id, `?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`));
        seen.push(...res.items.map((c: { id: string }) => c.id));
        page = res.next?.page;
      } while (page);
      assert.equal(seen.length, 5);
      assert.deepEqual(new Set(seen), ids);
    });

    test('a reader lists with format=markdown; an outsider gets 404', async () => {
      const { space } = await seed();
      const reader = await t.member('read');
      const res = ok(await list(space.id, '?format=markdown&limit=1', reader.token));
      assert.equal(res.items[0].body.markdown.trim(), 'Comment 4');
      const stranger = await t.outsider();
      assertError(await list(space.id, '', stranger.token), 404);
    });
  });

  describe('the space counts its open comments', () => {
    test('comments on the space count while open: after post, resolve, reopen and delete', async () => {
      const space = await buildSpace(t);
      const count = async () => ok(await t.api('GET', `/v1/spaces/${space.id}`)).comments as number;
      assert.equal(await count(), 0);
      const a = ok(await post(space.id, { body: markdown('a') }));
      const b = ok(await post(space.id, { body: markdown('b') }));
      assert.equal(await count(), 2);
      await put(space.id, a.id, { resolved: true });
      assert.equal(await count(), 1);
      await put(space.id, a.id, { resolved: false });
      assert.equal(await count(), 2);
      await t.api('DELETE', `/v1/spaces/${space.id}/comments/${b.id}`);
      assert.equal(await count(), 1);
      await t.api('POST', `/v1/spaces/${space.id}/comments/${a.id}/replies`, { body: { body: markdown('a reply is not a comment') } });
      assert.equal(await count(), 1);
      const listed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1000`));
      assert.equal(listed.items.find((s: { id: string }) => s.id === space.id).comments, 1, 'lists count too');
    });
  });
});

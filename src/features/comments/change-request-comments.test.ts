import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, buildSpaceWithPages, markdown, writeContent } from '../../../test/factories.ts';

describe('comments on change requests, and commenters', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function crThread() {
    const { space, pages } = await buildSpaceWithPages(t, 'Home');
    const cr = await buildChangeRequest(t, space.id);
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    return { space, pages, cr, base };
  }
  const post = (base: string, body: unknown, token?: string) => t.api('POST', `${base}/comments`, { body, ...(token ? { token } : {}) });

  describe('the nine operations under a change request', () => {
    test('a thread is posted, read, listed, resolved, replied to, reacted to and deleted; the change request may be named by number', async () => {
      const { space, cr, base } = await crThread();
      const commenter = await t.member('comment');
      const comment = ok(await post(base, { body: markdown('Why this change?') }, commenter.token));
      assert.equal(comment.target.changeRequest, cr.id);
      assert.equal(comment.target.space, space.id);
      const head = ok(await t.api('GET', `${base}`));
      assert.equal(comment.target.revision, head.revision, "the change request's revision");
      assert.equal(comment.urls.location, `http://quire.test/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.id}`);

      const byNumber = `/v1/spaces/${space.id}/change-requests/${cr.number}`;
      assert.equal(ok(await t.api('GET', `${byNumber}/comments/${comment.id}`)).id, comment.id);
      const listed = ok(await t.api('GET', `${byNumber}/comments?status=open`));
      assert.deepEqual(listed.items.map((c: { id: string }) => c.id), [comment.id]);
      assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}/comments`)).count, 0, 'not a comment on the space');

      const r = ok(await t.api('POST', `${base}/comments/${comment.id}/replies?format=markdown`, { body: { body: markdown('Because.') } }));
      assert.equal(r.body.markdown.trim(), 'Because.');
      assert.equal(r.urls.location, `http://quire.test${base}/comments/${comment.id}/replies/${r.id}`);
      assert.equal(ok(await t.api('GET', `${base}/comments/${comment.id}/replies/${r.id}`)).id, r.id);
      assert.equal(ok(await t.api('GET', `${base}/comments/${comment.id}/replies`)).count, 1);
      const reacted = ok(await t.api('PUT', `${base}/comments/${comment.id}/replies/${r.id}`, { token: commenter.token, body: { addedReactions: ['👍'] } }));
      assert.equal(reacted.reactions[0].count, 1);

      const resolved = ok(await t.api('PUT', `${base}/comments/${comment.id}`, { body: { resolved: true, addedReactions: ['✅'] } }));
      assert.equal(resolved.status, 'resolved');
      assert.equal(resolved.replies, 1);
      assert.equal(resolved.reactions[0].emoji, '✅');

      assert.equal((await t.api('DELETE', `${base}/comments/${comment.id}/replies/${r.id}`)).status, 204);
      assert.equal((await t.api('DELETE', `${base}/comments/${comment.id}`, { token: commenter.token })).status, 204);
      assertError(await t.api('GET', `${base}/comments/${comment.id}`), 404);
      assert.equal((await t.api('DELETE', `${base}/comments/${comment.id}`)).status, 204);
    });

    test('a reply PUT on a change request resolves and reopens its thread', async () => {
      const { base } = await crThread();
      const comment = ok(await post(base, { body: markdown('Fix the typo') }));
      const reviewer = await t.member('comment');
      const r = ok(await t.api('POST', `${base}/comments/${comment.id}/replies`, { token: reviewer.token, body: { body: markdown('Done') } }));
      const done = ok(await t.api('PUT', `${base}/comments/${comment.id}/replies/${r.id}`, { token: reviewer.token, body: { resolved: true } }));
      assert.equal(done.id, r.id);
      assert.equal(done.editedAt, undefined, 'resolving the thread does not edit the reply');
      const thread = ok(await t.api('GET', `${base}/comments/${comment.id}`));
      assert.equal(thread.status, 'resolved');
      assert.equal(thread.resolvedBy.id, reviewer.userId);
      ok(await t.api('PUT', `${base}/comments/${comment.id}/replies/${r.id}`, { body: { resolved: false } }));
      assert.equal(ok(await t.api('GET', `${base}/comments/${comment.id}`)).status, 'open');
      const reader = await t.member('read');
      assertError(await t.api('PUT', `${base}/comments/${comment.id}/replies/${r.id}`, { token: reader.token, body: { resolved: true } }), 403, 'comment role');
    });

    test('a comment may target a page of the change request, even one the space does not have yet', async () => {
      const { space, pages, cr, base } = await crThread();
      const [added] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Draft page', document: markdown('New text.') }]);
      const comment = ok(await post(base, { page: added, body: markdown('Looks good') }));
      assert.equal(comment.target.page.title, 'Draft page');
      assert.equal(comment.target.page.path, 'draft-page');
      assert.equal(comment.target.page.outdated, false);
      assertError(await post(`/v1/spaces/${space.id}`, { page: added, body: markdown('Not here') }), 400, 'body/page');
      const onHome = ok(await post(base, { page: pages[0], body: markdown('On home') }));
      assert.equal(onHome.target.page.title, 'Home');
      await writeContent(t, space.id, cr.id, [{ operation: 'update_page', page: pages[0], document: markdown('Home, rewritten.') }]);
      assert.equal(ok(await t.api('GET', `${base}/comments/${onHome.id}`)).target.page.outdated, true, 'edited in the change request');
      assertError(await post(base, { page: 'no-such-page', body: markdown('?') }), 400, 'body/page');
    });

    test('rights: a reader reads but cannot post; an outsider gets 404 everywhere (204 on DELETE); unknown change requests are 404', async () => {
      const { space, base } = await crThread();
      const comment = ok(await post(base, { body: markdown('Hi') }));
      const reader = await t.member('read');
      assert.equal(ok(await t.api('GET', `${base}/comments`, { token: reader.token })).count, 1);
      assertError(await post(base, { body: markdown('Me too') }, reader.token), 403);
      const stranger = await t.outsider();
      for (const [method, path] of [
        ['GET', `${base}/comments`],
        ['POST', `${base}/comments`],
        ['GET', `${base}/comments/${comment.id}`],
        ['PUT', `${base}/comments/${comment.id}`],
        ['DELETE', `${base}/comments/${comment.id}`],
        ['GET', `${base}/comments/${comment.id}/replies`],
        ['POST', `${base}/comments/${comment.id}/replies`],
        ['GET', `${base}/comments/${comment.id}/replies/x`],
        ['PUT', `${base}/comments/${comment.id}/replies/x`],
        ['DELETE', `${base}/comments/${comment.id}/replies/x`],
        ['GET', `${base}/commenters`],
      ] as const) {
        const body = method === 'POST' ? { body: markdown('x') } : method === 'PUT' ? {} : undefined;
        const res = await t.api(method, path, { token: stranger.token, ...(body ? { body } : {}) });
        // A DELETE of what the caller cannot see finds nothing to delete: 204, as for what does not exist.
        if (method === 'DELETE') assert.equal(res.status, 204);
        else assertError(res, 404);
      }
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/999/comments`), 404);
      assert.equal(ok(await t.api('GET', `${base}/comments/${comment.id}`)).status, 'open', 'nothing changed');
    });
  });

  describe('counters', () => {
    test("a change request's comments are its open comments, exact after post, resolve, reopen and delete, in reads and lists", async () => {
      const { space, cr, base } = await crThread();
      const count = async () => ok(await t.api('GET', base)).comments as number;
      const listed = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests`)).items.find((c: { id: string }) => c.id === cr.id).comments as number;
      const spaceCount = async () => ok(await t.api('GET', `/v1/spaces/${space.id}`)).comments as number;
      assert.equal(await count(), 0);
      const a = ok(await post(base, { body: markdown('a') }));
      const b = ok(await post(base, { body: markdown('b') }));
      ok(await post(`/v1/spaces/${space.id}`, { body: markdown('on the space') }));
      assert.equal(await count(), 2);
      assert.equal(await listed(), 2);
      assert.equal(await spaceCount(), 1, "the space counts only its own content's comments");
      ok(await t.api('PUT', `${base}/comments/${a.id}`, { body: { resolved: true } }));
      assert.equal(await count(), 1);
      assert.equal(await listed(), 1);
      ok(await t.api('PUT', `${base}/comments/${a.id}`, { body: { resolved: false } }));
      assert.equal(await count(), 2);
      await t.api('DELETE', `${base}/comments/${b.id}`);
      assert.equal(await count(), 1);
      const patched = ok(await t.api('PATCH', base, { body: { subject: 'Renamed' } }));
      assert.equal(patched.comments, 1, 'every read of the change request tells the truth');
      const other = await buildChangeRequest(t, space.id);
      assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${other.id}`)).comments, 0);
      const content = ok(await t.api('POST', `${base}/content`, { body: { changes: [{ operation: 'insert_page', title: 'X', document: {} }] } }));
      assert.equal(content.comments, 1);
    });
  });

  describe('commenters', () => {
    test('the members who wrote comments or replies, each once, as members; people who left are left out', async () => {
      const { space, base } = await crThread();
      const alice = await t.member('comment');
      const bob = await t.member('edit');
      const carol = await t.member('comment');
      const dave = await t.member('comment');
      const first = ok(await post(base, { body: markdown('1') }, alice.token));
      ok(await post(base, { body: markdown('2') }, alice.token));
      ok(await t.api('POST', `${base}/comments/${first.id}/replies`, { token: bob.token, body: { body: markdown('r') } }));
      ok(await post(`/v1/spaces/${space.id}`, { body: markdown('space only') }, carol.token));
      ok(await post(base, { body: markdown('leaving soon') }, dave.token));
      await t.db.deleteFrom('members').where('organization_id', '=', t.org.id).where('user_id', '=', dave.userId).execute();

      const res = ok(await t.api('GET', `${base}/commenters`));
      assert.equal(res.count, 2);
      const ids = res.items.map((m: { id: string }) => m.id);
      assert.deepEqual(new Set(ids), new Set([alice.userId, bob.userId]));
      const bobMember = res.items.find((m: { id: string }) => m.id === bob.userId);
      assert.equal(bobMember.object, 'member');
      assert.equal(bobMember.role, 'edit');
      assert.equal(bobMember.user.id, bob.userId);
      assert.equal(bobMember.disabled, false);
      assert.equal(typeof bobMember.joinedAt, 'string');
      assert.equal(bobMember.sso, false);

      const onSpace = ok(await t.api('GET', `/v1/spaces/${space.id}/commenters`));
      assert.deepEqual(onSpace.items.map((m: { id: string }) => m.id), [carol.userId]);

      const seen: string[] = [];
      let page: string | undefined;
      do {
        const p = ok(await t.api('GET', `${base}/commenters?limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`));
        assert.equal(p.count, 2);
        seen.push(...p.items.map((m: { id: string }) => m.id));
        page = p.next?.page;
      } while (page);
      assert.deepEqual(seen, [...ids].sort());
      assertError(await t.api('GET', `${base}/commenters?limit=1001`), 400, 'limit');
    });

    test('a space with no discussion has no commenters; an outsider gets 404', async () => {
      const space = await buildSpace(t);
      const res = ok(await t.api('GET', `/v1/spaces/${space.id}/commenters`));
      assert.deepEqual(res, { count: 0, items: [] });
      const stranger = await t.outsider();
      assertError(await t.api('GET', `/v1/spaces/${space.id}/commenters`, { token: stranger.token }), 404);
    });
  });
});

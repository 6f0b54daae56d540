import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildComment, buildSpace, markdown } from '../../../test/factories.ts';

describe('replies and reactions', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function thread(token?: string) {
    const space = await buildSpace(t);
    const comment = await buildComment(t, space.id, { markdown: 'Thread start', token });
    const base = `/v1/spaces/${space.id}/comments/${comment.id}`;
    return { space, comment, base };
  }
  const reply = (base: string, text: string, token?: string, query = '') =>
    t.api('POST', `${base}/replies${query}`, { body: { body: markdown(text) }, ...(token ? { token } : {}) });

  describe('postCommentReplyInSpace and getCommentReplyInSpace', () => {
    test('a commenter replies; the reply counts into the comment’s replies and reads back in either form', async () => {
      const { comment, base } = await thread();
      const commenter = await t.member('comment');
      const posted = ok(await reply(base, 'I agree with *this*.', commenter.token));
      assert.equal(posted.object, 'comment-reply');
      assert.equal(posted.postedBy.id, commenter.userId);
      assert.equal(posted.postedAt, t.clock.now().toISOString());
      assert.deepEqual(posted.reactions, []);
      assert.equal(posted.body.document.object, 'document');
      assert.equal(posted.urls.location, `http://quire.test${base}/replies/${posted.id}`);
      assert.deepEqual(posted.permissions, { view: true, edit: true, reply: true, delete: true });
      for (const absent of ['replies', 'target', 'status', 'resolvedAt', 'resolvedBy']) assert.equal(posted[absent], undefined, absent);

      const read = ok(await t.api('GET', `${base}/replies/${posted.id}?format=markdown`));
      assert.equal(read.body.markdown.trim(), 'I agree with *this*.');
      assert.deepEqual(read.permissions, { view: true, edit: false, reply: true, delete: true }, 'the admin did not write it');
      assert.equal(ok(await t.api('GET', base)).replies, 1);
      await reply(base, 'Me too');
      assert.equal(ok(await t.api('GET', base)).replies, 2);
      assert.equal(comment.replies, 0);
    });

    test('a reply to a missing comment is 404; a missing reply is 404; a reader cannot reply; bad bodies name the field', async () => {
      const { space, base } = await thread();
      assertError(await reply(`/v1/spaces/${space.id}/comments/no-such-comment`, 'Hello?'), 404, 'no-such-comment');
      assertError(await t.api('GET', `${base}/replies/no-such-reply`), 404, 'no-such-reply');
      assertError(await t.api('GET', `/v1/spaces/${space.id}/comments/no-such-comment/replies/x`), 404);
      const reader = await t.member('read');
      assertError(await reply(base, 'Can I?', reader.token), 403, 'comment role');
      assertError(await t.api('POST', `${base}/replies`, { body: {} }), 400, 'body');
      assertError(await t.api('POST', `${base}/replies`, { body: { body: { markdown: '' } } }), 400, 'body/body/markdown');
      const stranger = await t.outsider();
      assertError(await reply(base, 'Hi', stranger.token), 404);
      assertError(await t.api('GET', `${base}/replies`, { token: stranger.token }), 404);
    });
  });

  describe('listCommentRepliesInSpace', () => {
    test('replies list oldest first, in keyset pages, counted', async () => {
      const { base } = await thread();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        ids.push(ok(await reply(base, `Reply ${i}`)).id);
      }
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = ok(await t.api('GET', `${base}/replies?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`));
        assert.equal(res.count, 5);
        seen.push(...res.items.map((r: { id: string }) => r.id));
        page = res.next?.page;
      } while (page);
      assert.deepEqual(seen, ids);
      const md = ok(await t.api('GET', `${base}/replies?format=markdown&limit=1`));
      assert.equal(md.items[0].body.markdown.trim(), 'Reply 0');
      assertError(await t.api('GET', `${base.replace(/comments\/.*/, 'comments/nope')}/replies`), 404);
    });
  });

  describe('updateCommentReplyInSpace and deleteCommentReplyInSpace', () => {
    test('only its author edits a reply; its author or a space admin deletes it', async () => {
      const { base } = await thread();
      const author = await t.member('comment');
      const other = await t.member('comment');
      const r = ok(await reply(base, 'Original', author.token));
      t.clock.advance(5000);
      const edited = ok(await t.api('PUT', `${base}/replies/${r.id}`, { token: author.token, body: { body: markdown('Edited') } }));
      assert.equal(edited.editedAt, t.clock.now().toISOString());
      assertError(await t.api('PUT', `${base}/replies/${r.id}`, { token: other.token, body: { body: markdown('Mine now') } }), 403, 'author');
      assertError(await t.api('PUT', `${base}/replies/${r.id}`, { body: { body: markdown('Admin edit') } }), 403, 'author');
      assertError(await t.api('PUT', `${base}/replies/no-such-reply`, { body: { addedReactions: ['👍'] } }), 404);
      assertError(await t.api('DELETE', `${base}/replies/${r.id}`, { token: other.token }), 403);
      const mine = ok(await reply(base, 'Delete me', other.token));
      assert.equal((await t.api('DELETE', `${base}/replies/${mine.id}`, { token: other.token })).status, 204);
      assert.equal((await t.api('DELETE', `${base}/replies/${r.id}`)).status, 204, 'the admin removes it');
      assertError(await t.api('GET', `${base}/replies/${r.id}`), 404);
      assert.equal(ok(await t.api('GET', base)).replies, 0);
      assert.equal((await t.api('DELETE', `${base}/replies/${r.id}`)).status, 204, 'deleting again is 204');
      assert.equal((await t.api('DELETE', `${base.replace(/comments\/.*/, 'comments/nope')}/replies/x`)).status, 204);
    });

    test('a reply on a space does not take `resolved` (400): the thread stays as it is', async () => {
      const { base } = await thread();
      const r = ok(await reply(base, 'Done?'));
      assertError(await t.api('PUT', `${base}/replies/${r.id}`, { body: { resolved: true } }), 400, 'body/resolved');
      assert.equal(ok(await t.api('GET', base)).status, 'open');
    });
  });

  describe('reactions', () => {
    test('adding a reaction twice keeps one; removing takes only the caller’s; users carry reactedAt', async () => {
      const { base } = await thread();
      const a = await t.member('comment');
      const b = await t.member('comment');
      const first = ok(await t.api('PUT', base, { token: a.token, body: { addedReactions: ['👍'] } }));
      assert.deepEqual(first.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count]), [['👍', 1]]);
      assert.equal(first.reactions[0].users[0].user.id, a.userId);
      assert.equal(first.reactions[0].users[0].reactedAt, t.clock.now().toISOString());
      t.clock.advance(1000);
      ok(await t.api('PUT', base, { token: a.token, body: { addedReactions: ['🎉'] } }));
      t.clock.advance(1000);
      ok(await t.api('PUT', base, { token: a.token, body: { addedReactions: ['👍'] } }));
      const both = ok(await t.api('PUT', base, { token: b.token, body: { addedReactions: ['👍'] } }));
      const thumbs = both.reactions.find((r: { emoji: string }) => r.emoji === '👍');
      assert.equal(thumbs.count, 2);
      assert.deepEqual(thumbs.users.map((u: { user: { id: string } }) => u.user.id), [a.userId, b.userId], 'in the order they reacted');
      assert.notEqual(thumbs.users[0].reactedAt, thumbs.users[1].reactedAt, 'a repeated reaction keeps its first time');

      const removed = ok(await t.api('PUT', base, { token: b.token, body: { removedReactions: ['👍', '🎉'] } }));
      assert.deepEqual(
        removed.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count]),
        [
          ['👍', 1],
          ['🎉', 1],
        ],
        'b never reacted with 🎉; a’s reactions stay',
      );
      const gone = ok(await t.api('PUT', base, { token: a.token, body: { removedReactions: ['🎉'] } }));
      assert.deepEqual(gone.reactions.map((r: { emoji: string }) => r.emoji), ['👍']);
      assertError(await t.api('PUT', base, { body: { addedReactions: ['👍'], removedReactions: ['👍'] } }), 400, 'body/removedReactions');
      assertError(await t.api('PUT', base, { body: { addedReactions: '👍' } }), 400, 'body/addedReactions');
    });

    test('reactions on a reply are the reply’s own', async () => {
      const { base } = await thread();
      const r = ok(await reply(base, 'React to me'));
      const reacted = ok(await t.api('PUT', `${base}/replies/${r.id}`, { body: { addedReactions: ['❤️'] } }));
      assert.deepEqual(reacted.reactions.map((x: { emoji: string; count: number }) => [x.emoji, x.count]), [['❤️', 1]]);
      assert.deepEqual(ok(await t.api('GET', base)).reactions, [], 'the comment has none');
      const listed = ok(await t.api('GET', `${base}/replies`));
      assert.equal(listed.items[0].reactions[0].count, 1);
      const reader = await t.member('read');
      assertError(await t.api('PUT', `${base}/replies/${r.id}`, { token: reader.token, body: { addedReactions: ['👍'] } }), 403, 'comment role');
    });

    test('20 people reacting at once count 20; one person reacting 10 times at once counts 1', async () => {
      const { base } = await thread();
      const people = await Promise.all(Array.from({ length: 20 }, () => t.member('comment')));
      const responses = await Promise.all(people.map((p) => t.api('PUT', base, { token: p.token, body: { addedReactions: ['🚀'] } })));
      for (const res of responses) assert.equal(res.status, 200, JSON.stringify(res.body));
      const after20 = ok(await t.api('GET', base));
      assert.equal(after20.reactions[0].count, 20);
      assert.equal(new Set(after20.reactions[0].users.map((u: { user: { id: string } }) => u.user.id)).size, 20);

      const one = people[0]!;
      const again = await Promise.all(Array.from({ length: 10 }, () => t.api('PUT', base, { token: one.token, body: { addedReactions: ['👀'] } })));
      for (const res of again) assert.equal(res.status, 200, JSON.stringify(res.body));
      const eyes = ok(await t.api('GET', base)).reactions.find((r: { emoji: string }) => r.emoji === '👀');
      assert.equal(eyes.count, 1);

      const removals = await Promise.all(people.slice(0, 10).map((p) => t.api('PUT', base, { token: p.token, body: { removedReactions: ['🚀'] } })));
      for (const res of removals) assert.equal(res.status, 200);
      assert.equal(ok(await t.api('GET', base)).reactions.find((r: { emoji: string }) => r.emoji === '🚀').count, 10);
    });
  });
});

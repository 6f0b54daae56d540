import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { officialClient, rejectsWith } from '../../../test/e2e/gitbook-client.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from '../../../test/e2e/spec-validator.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpaceWithPages, markdown } from '../../../test/factories.ts';

/**
 * Discussions over real HTTP, driven by the official @gitbook/api client; every response (successes and errors)
 * is checked against the official OpenAPI spec on its way to the client.
 */

const OPERATIONS = [
  'listCommentsInSpace',
  'postCommentInSpace',
  'getCommentInSpace',
  'updateCommentInSpace',
  'deleteCommentInSpace',
  'listCommentRepliesInSpace',
  'postCommentReplyInSpace',
  'getCommentReplyInSpace',
  'updateCommentReplyInSpace',
  'deleteCommentReplyInSpace',
  'listCommentersInSpace',
  'listCommentsInChangeRequest',
  'postCommentInChangeRequest',
  'getCommentInChangeRequest',
  'updateCommentInChangeRequest',
  'deleteCommentInChangeRequest',
  'listCommentRepliesInChangeRequest',
  'postCommentReplyInChangeRequest',
  'getCommentReplyInChangeRequest',
  'updateCommentReplyInChangeRequest',
  'deleteCommentReplyInChangeRequest',
  'listCommentersInChangeRequest',
];

describe('comments through the official @gitbook/api client', { timeout: 300_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(spec, log);
  const client = (token: string) => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: checkedFetch } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close());

  test('a thread on a space page: replies, reactions, resolve, filters, commenters, deletion', async () => {
    const { space, pages } = await buildSpaceWithPages(t, 'Guide');
    const alice = await t.member('comment');
    const bob = await t.member('comment');
    const a = client(alice.token).spaces;
    const b = client(bob.token).spaces;

    const { data: comment } = await a.postCommentInSpace(space.id, { page: pages[0], body: markdown('Is step **2** right?') });
    assert.equal(comment.target.page?.title, 'Guide');
    assert.equal(comment.target.page?.outdated, false);
    const { data: reply } = await b.postCommentReplyInSpace(space.id, comment.id, { body: markdown('Yes, checked.') });
    const { data: reacted } = await b.updateCommentInSpace(space.id, comment.id, { addedReactions: ['👍'] });
    assert.equal(reacted.reactions[0]?.count, 1);
    t.clock.advance(1000);
    await a.updateCommentInSpace(space.id, comment.id, { addedReactions: ['👍', '🎉'] });
    const { data: replyReacted } = await a.updateCommentReplyInSpace(space.id, comment.id, reply.id, { addedReactions: ['❤️'], body: undefined });
    assert.equal(replyReacted.reactions[0]?.emoji, '❤️');
    await b.updateCommentReplyInSpace(space.id, comment.id, reply.id, { body: markdown('Yes, checked twice.') });

    const { data: read } = await a.getCommentInSpace(space.id, comment.id, { format: 'markdown' });
    assert.equal(read.replies, 1);
    assert.equal((read.body as { markdown: string }).markdown.trim(), 'Is step **2** right?');
    assert.deepEqual(read.reactions.map((r) => [r.emoji, r.count]), [
      ['👍', 2],
      ['🎉', 1],
    ]);
    const { data: gotReply } = await a.getCommentReplyInSpace(space.id, comment.id, reply.id, { format: 'markdown' });
    assert.equal((gotReply.body as { markdown: string }).markdown.trim(), 'Yes, checked twice.');
    assert.ok(gotReply.editedAt);
    const { data: replies } = await a.listCommentRepliesInSpace(space.id, comment.id, { limit: 10 });
    assert.deepEqual(replies.items.map((r) => r.id), [reply.id]);

    const { data: resolved } = await b.updateCommentInSpace(space.id, comment.id, { resolved: true });
    assert.equal(resolved.status, 'resolved');
    const second = (await b.postCommentInSpace(space.id, { body: markdown('Another topic') })).data;
    const { data: open } = await a.listCommentsInSpace(space.id, { status: 'open' });
    assert.deepEqual(open.items.map((c) => c.id), [second.id]);
    const { data: byAuthors } = await a.listCommentsInSpace(space.id, { authors: [alice.userId, bob.userId], order: 'asc', targetPage: pages[0] });
    assert.deepEqual(byAuthors.items.map((c) => c.id), [comment.id]);
    const { data: spaceNow } = await a.getSpaceById(space.id);
    assert.equal(spaceNow.comments, 1);

    const { data: commenters } = await a.listCommentersInSpace(space.id, { limit: 10 });
    assert.deepEqual(new Set(commenters.items.map((m) => m.id)), new Set([alice.userId, bob.userId]));

    await rejectsWith(b.updateCommentInSpace(space.id, comment.id, { body: markdown('Not mine') }), 403);
    await rejectsWith(a.getCommentInSpace(space.id, 'no-such-comment'), 404);
    await rejectsWith(a.postCommentInSpace(space.id, { page: 'no-such-page', body: markdown('?') }), 400);

    assert.equal((await b.deleteCommentReplyInSpace(space.id, comment.id, reply.id)).status, 204);
    assert.equal((await a.deleteCommentInSpace(space.id, comment.id)).status, 204);
    await rejectsWith(a.getCommentInSpace(space.id, comment.id), 404);
  });

  test('a thread on a change request, resolved through a reply', async () => {
    const { space } = await buildSpaceWithPages(t, 'Intro');
    const cr = await buildChangeRequest(t, space.id);
    const reviewer = await t.member('comment');
    const api = client(t.admin.token).spaces;
    const rev = client(reviewer.token).spaces;

    const { data: comment } = await rev.postCommentInChangeRequest(space.id, cr.id, { body: markdown('Please shorten the intro.') });
    assert.equal(comment.target.changeRequest, cr.id);
    const { data: reply } = await api.postCommentReplyInChangeRequest(space.id, cr.id, comment.id, { body: markdown('Done.') }, { format: 'markdown' });
    assert.equal((reply.body as { markdown: string }).markdown.trim(), 'Done.');
    await rev.updateCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id, { addedReactions: ['🙏'] });
    const { data: replyRead } = await api.getCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id);
    assert.equal(replyRead.reactions[0]?.count, 1);
    const { data: listedReplies } = await api.listCommentRepliesInChangeRequest(space.id, cr.id, comment.id);
    assert.equal(listedReplies.count, 1);

    const { data: before } = await api.getChangeRequestById(space.id, cr.id);
    assert.equal(before.comments, 1);
    await rev.updateCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id, { resolved: true });
    const { data: thread } = await api.getCommentInChangeRequest(space.id, cr.id, comment.id);
    assert.equal(thread.status, 'resolved');
    const { data: afterResolve } = await api.getChangeRequestById(space.id, cr.id);
    assert.equal(afterResolve.comments, 0);
    const { data: reopened } = await api.updateCommentInChangeRequest(space.id, cr.id, comment.id, { resolved: false, addedReactions: ['👀'] });
    assert.equal(reopened.status, 'open');

    const { data: listed } = await api.listCommentsInChangeRequest(space.id, cr.id, { status: 'all', format: 'document' });
    assert.deepEqual(listed.items.map((c) => c.id), [comment.id]);
    const { data: commenters } = await api.listCommentersInChangeRequest(space.id, cr.id);
    assert.deepEqual(new Set(commenters.items.map((m) => m.id)), new Set([reviewer.userId, t.admin.userId]));

    const stranger = await t.outsider();
    await rejectsWith(client(stranger.token).spaces.getCommentInChangeRequest(space.id, cr.id, comment.id), 404);
    assert.equal((await api.deleteCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id)).status, 204);
    assert.equal((await api.deleteCommentInChangeRequest(space.id, cr.id, comment.id)).status, 204);
  });

  test('every comment operation answered with a success, and every answer conformed to the official spec', () => {
    assert.deepEqual(log.filter((entry) => entry.problems.length > 0).map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    assert.deepEqual(OPERATIONS.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
    assert.deepEqual(OPERATIONS.filter((op) => !spec.has(op)), [], 'operations missing from the official spec');
  });
});

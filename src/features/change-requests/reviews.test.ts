import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildComment, buildReview, buildSpace, requestReviewers, writeContent, markdown } from '../../../test/factories.ts';

describe('change request reviews', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const crPath = (spaceId: string, crId: string) => `/v1/spaces/${spaceId}/change-requests/${crId}`;

  test("the merge answers which of the organization's rules are not met", async () => {
    const space = await buildSpace(t, { title: 'Ruled by the organization' });
    ok(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_change_request_subject' }] } } }));
    try {
      const cr = await buildChangeRequest(t, space.id, { pages: ['Notes'] });
      const refused = await t.api('POST', `${crPath(space.id, cr.id)}/merge`);
      assertError(refused, 409, `Merging change request #${cr.number} is refused by the merge rules: it needs at least one approving review; it needs a subject`);
      // A space with rules of its own no longer inherits them.
      ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { mergeRules: { type: 'none' } } }));
      assert.equal(ok(await t.api('POST', `${crPath(space.id, cr.id)}/merge`)).result, 'merge');
    } finally {
      ok(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { mergeRules: { type: 'none' } } }));
    }
  });

  test('asking a reviewer again makes their review outdated: it no longer counts for the merge', async () => {
    const space = await buildSpace(t, { title: 'Asked again' });
    ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } } }));
    const author = await t.member('edit');
    const reviewer = await t.member('review');
    const cr = await buildChangeRequest(t, space.id, { pages: ['Draft'], token: author.token });
    await buildReview(t, space.id, cr.id, 'approved', { token: reviewer.token });
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'More', document: markdown('More.') }], { token: author.token });
    t.clock.advance(1000);
    await requestReviewers(t, space.id, cr.id, [reviewer.userId], { token: author.token });
    const reviews = ok(await t.api('GET', `${crPath(space.id, cr.id)}/reviews`));
    assert.deepEqual(reviews.items.map((r: { outdated: boolean }) => r.outdated), [true]);
    assertError(await t.api('POST', `${crPath(space.id, cr.id)}/merge`), 409, 'it needs at least one approving review');
    const review = await buildReview(t, space.id, cr.id, 'approved', { token: reviewer.token });
    assert.equal(review.requestedBy.id, author.userId);
    assert.equal(ok(await t.api('POST', `${crPath(space.id, cr.id)}/merge`)).result, 'merge');
  });

  test("a review's comment is posted in the change request's discussion, in the same write", async () => {
    const space = await buildSpace(t, { title: 'Commented review' });
    const reviewer = await t.member('review');
    const cr = await buildChangeRequest(t, space.id, { pages: ['Draft'] });
    const reviews = `${crPath(space.id, cr.id)}/reviews`;
    const review = ok(await t.api('POST', reviews, { token: reviewer.token, body: { status: 'changes-requested', comment: markdown('Please **shorten** it.') } }), 201);
    assert.equal(review.comment.postedBy.id, reviewer.userId);
    assert.equal(review.comment.target.changeRequest, cr.id);
    const thread = ok(await t.api('GET', `${crPath(space.id, cr.id)}/comments?format=markdown`));
    assert.deepEqual(thread.items.map((c: { id: string }) => c.id), [review.comment.id]);
    const listed = ok(await t.api('GET', `${reviews}?format=markdown`));
    assert.equal(listed.items[0].comment.id, review.comment.id);
    assert.match(listed.items[0].comment.body.markdown, /Please \*\*shorten\*\* it\./);
    // A body that is not a document refuses the whole review: neither is written.
    assertError(await t.api('POST', reviews, { token: reviewer.token, body: { status: 'approved', comment: {} } }), 400, 'body/comment');
    assert.equal(ok(await t.api('GET', reviews)).count, 1);
    // A deleted comment leaves the review without one.
    ok(await t.api('DELETE', `${crPath(space.id, cr.id)}/comments/${review.comment.id}`, { token: reviewer.token }), 204);
    assert.equal(ok(await t.api('GET', reviews)).items[0].comment, undefined);
  });

  test('what a review cannot be: by a reader, by its author, on an archived change request', async () => {
    const space = await buildSpace(t, { title: 'Refusals' });
    const reader = await t.member('read');
    const reviewer = await t.member('review');
    const cr = await buildChangeRequest(t, space.id, { pages: ['Draft'] });
    const reviews = `${crPath(space.id, cr.id)}/reviews`;
    assertError(await t.api('POST', reviews, { token: reader.token, body: { status: 'approved' } }), 403, 'Reviewing a change request needs the review role on the space');
    assertError(await t.api('POST', reviews, { body: { status: 'approved' } }), 403, 'its author');
    assertError(await t.api('POST', reviews, { token: reviewer.token, body: { status: 'maybe' } }), 400, 'body/status');
    assertError(await t.api('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { body: { users: [reviewer.userId], description: { document: {} } } }), 400, 'body/description');
    assertError(await t.api('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { body: { users: ['nobody'] } }), 400, 'body/users/0');
    ok(await t.api('PATCH', crPath(space.id, cr.id), { body: { status: 'archived' } }));
    assertError(await t.api('POST', reviews, { token: reviewer.token, body: { status: 'approved' } }), 409, 'archived');
  });

  test('asking for reviews may rename the change request, in the same write', async () => {
    const space = await buildSpace(t, { title: 'Renamed on request' });
    const reviewer = await t.member('review');
    const cr = await buildChangeRequest(t, space.id, { subject: 'wip' });
    const answer = ok(await t.api('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { body: { users: [reviewer.userId, reviewer.userId], subject: ' Ready for review ' } }));
    assert.equal(answer.users.length, 1);
    assert.equal(ok(await t.api('GET', crPath(space.id, cr.id))).subject, 'Ready for review');
  });

  test('contributors: who edited and who commented, with counts', async () => {
    const space = await buildSpace(t, { title: 'Contributors' });
    const commenter = await t.member('comment');
    const cr = await buildChangeRequest(t, space.id, { pages: ['One'] });
    t.clock.advance(1000);
    await buildComment(t, space.id, { changeRequestId: cr.id, markdown: 'Looks good', token: commenter.token });
    const list = ok(await t.api('GET', `${crPath(space.id, cr.id)}/contributors`));
    assert.deepEqual(
      list.items.map((c: { user: { id: string }; actionType: string; count: number }) => [c.user.id, c.actionType, c.count]),
      [
        [commenter.userId, 'comment', 1],
        [t.admin.userId, 'edit', 2],
      ],
    );
  });
});

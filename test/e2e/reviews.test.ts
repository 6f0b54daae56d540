import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildSpace, markdown, writeMain } from '../factories.ts';
import { png } from '../fixtures/png.ts';

/**
 * Reviews (issue 29) over real HTTP with the official client, every exchange checked against the official spec:
 * an author asks two reviewers, the space's merge rules hold the merge until both approve, and the merged
 * revision is read back through the revision reads and its semantic changes.
 */

const OPERATIONS = [
  'getReviewsByChangeRequestId',
  'updateChangeRequestById',
  'getChangeRequestById',
  'submitChangeRequestReview',
  'getRequestedReviewersByChangeRequestId',
  'requestReviewersForChangeRequest',
  'removeRequestedReviewerFromChangeRequest',
  'getContributorsByChangeRequestId',
  'getRevisionSemanticChanges',
  'listPagesInRevisionById',
  'getPageInRevisionById',
  'getPageDocumentInRevisionById',
  'getPageInRevisionByPath',
  'listFilesInRevisionById',
  'getFileInRevisionById',
];

describe('change request reviews and revision reads through the official client', { timeout: 120_000 }, () => {
  const e2e = e2eSession();

  test('merge rules hold a change request until the reviewers they name approve it', async () => {
    const { t } = e2e;
    const space = await buildSpace(t, { title: 'Reviewed space' });
    await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Welcome', document: markdown('Hello.') }]);
    const author = await t.member('edit');
    const first = await t.member('review');
    const second = await t.member('review');
    const reader = await t.member('read');
    const admin = e2e.client();
    const asAuthor = e2e.client(author.token);
    await admin.spaces.updateSpaceById(space.id, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_specific_reviewers', users: [second.userId] }, { rule: 'require_all_reviews_approved' }] },
    } as never);

    const { data: cr } = await asAuthor.spaces.createChangeRequest(space.id, { subject: 'Add a guide' });
    await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: author.token,
      body: { changes: [{ operation: 'insert_page', title: 'Guide', document: markdown('Read me.') }] },
    });

    // Asking for reviews records who asked whom, at which revision.
    const { data: asked } = await asAuthor.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [first.userId, second.userId] });
    assert.deepEqual(
      asked.users!.map((r) => [r.kind, r.kind === 'user' ? r.user.id : '', r.requestedBy.id]),
      [
        ['user', first.userId, author.userId],
        ['user', second.userId, author.userId],
      ],
    );
    await rejectsWith(asAuthor.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reader.userId] }), 400);
    await rejectsWith(asAuthor.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never }), 403);
    await rejectsWith(admin.spaces.mergeChangeRequest(space.id, cr.id), 409);

    // The first reviewer asks for changes, then approves: the earlier review is outdated, the request answered.
    const { data: changesRequested } = await e2e.client(first.token).spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'changes-requested' as never,
      comment: { markdown: 'The guide needs an example.' } as never,
    });
    assert.equal(changesRequested.comment?.postedBy.id, first.userId);
    assert.equal(changesRequested.requestedBy?.id, author.userId);
    assert.equal(changesRequested.revision, (await admin.spaces.getChangeRequestById(space.id, cr.id)).data.revision);
    await rejectsWith(admin.spaces.mergeChangeRequest(space.id, cr.id), 409);
    t.clock.advance(60_000);
    await e2e.client(first.token).spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never });
    const { data: reviews } = await admin.spaces.getReviewsByChangeRequestId(space.id, cr.id);
    assert.deepEqual(
      reviews.items.map((r) => [r.reviewer.id, r.status, r.outdated]),
      [
        [first.userId, 'changes-requested', true],
        [first.userId, 'approved', false],
      ],
    );
    const { data: current } = await admin.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false });
    assert.deepEqual(current.items.map((r) => r.status), ['approved']);
    const { data: pending } = await admin.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    assert.deepEqual(pending.items.map((r) => (r.kind === 'user' ? r.user.id : '')), [second.userId]);
    // Still held: the rules name the second reviewer.
    await rejectsWith(admin.spaces.mergeChangeRequest(space.id, cr.id), 409);

    await e2e.client(second.token).spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never });
    const { data: merged } = await admin.spaces.mergeChangeRequest(space.id, cr.id);
    assert.equal(merged.result, 'merge');
    await rejectsWith(e2e.client(first.token).spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never }), 409);

    // Contributors: the author edited, the first reviewer commented (with their review).
    const { data: contributors } = await admin.spaces.getContributorsByChangeRequestId(space.id, cr.id);
    assert.deepEqual(
      contributors.items.map((c) => [c.user.id, c.actionType, c.count]).sort(),
      [
        [author.userId, 'edit', 2],
        [first.userId, 'comment', 1],
      ].sort(),
    );

    // The merge revision's changes name the change request and the page it created.
    const { data: changes } = await admin.spaces.getRevisionSemanticChanges(space.id, merged.revision);
    assert.equal(changes.mergedFrom?.id, cr.id);
    assert.deepEqual(changes.changes.map((c) => [c.type, 'page' in c ? c.page.title : '']), [['page_created', 'Guide']]);
  });

  test('a review request can be withdrawn, once', async () => {
    const { t } = e2e;
    const space = await buildSpace(t, { title: 'Withdrawn' });
    const reviewer = await t.member('review');
    const admin = e2e.client();
    const { data: cr } = await admin.spaces.createChangeRequest(space.id, { subject: 'Small fix' });
    await admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.userId] });
    const first = await admin.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.userId);
    assert.equal(first.status, 205);
    const again = await admin.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.userId);
    assert.equal(again.status, 204);
    const { data: pending } = await admin.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    assert.equal(pending.count, 0);
  });

  test('a change request has a description, a JSON document, which a merge rule can ask for', async () => {
    const { t } = e2e;
    const space = await buildSpace(t, { title: 'Described' });
    const reviewer = await t.member('review');
    const admin = e2e.client();
    await admin.spaces.updateSpaceById(space.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_description' }] } } as never);
    const { data: cr } = await admin.spaces.createChangeRequest(space.id, { subject: 'Explained' });
    assert.equal(cr.description, undefined);
    const refused = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    assert.equal(refused.status, 409);
    assert.match(String((refused.body as { error: { message: string } }).error.message), /needs a description/);

    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const document = { object: 'document', data: {}, nodes: [paragraph('Why: the guide was wrong.')] };
    const { data: described } = await admin.spaces.updateChangeRequestById(space.id, cr.id, { description: document as never });
    assert.equal(described.description?.object, 'document');
    assert.equal(JSON.stringify(described.description?.nodes).includes('Why: the guide was wrong.'), true);
    // Its blocks get keys, as a page's do, so a comment can name one.
    assert.equal(typeof (described.description?.nodes[0] as { key?: string }).key, 'string');
    const { data: read } = await admin.spaces.getChangeRequestById(space.id, cr.id);
    assert.deepEqual(read.description, described.description);

    // Asking for a review may rewrite it in the same write.
    await admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.userId], description: { ...document, nodes: [paragraph('Reworded.')] } as never });
    const { data: reworded } = await admin.spaces.getChangeRequestById(space.id, cr.id);
    assert.ok(JSON.stringify(reworded.description).includes('Reworded.'));

    // What is not a document is refused, naming the field, and nothing changes.
    const bad = await t.api('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { description: { object: 'document', nodes: [{ object: 'block', type: 'no-such-block' }] } } });
    assert.equal(bad.status, 400);
    assert.match(String((bad.body as { error: { message: string } }).error.message), /body\/description/);
    const { data: unchanged } = await admin.spaces.getChangeRequestById(space.id, cr.id);
    assert.deepEqual(unchanged.description, reworded.description);

    const { data: merged } = await admin.spaces.mergeChangeRequest(space.id, cr.id);
    assert.equal(merged.result, 'merge');
    await rejectsWith(admin.spaces.updateChangeRequestById(space.id, cr.id, { description: document as never }), 409);
  });

  test('a description without blocks clears it', async () => {
    const { t } = e2e;
    const space = await buildSpace(t, { title: 'Cleared' });
    const admin = e2e.client();
    const { data: cr } = await admin.spaces.createChangeRequest(space.id, { subject: 'Short-lived text' });
    const text = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Soon gone.', marks: [] }] }] }] };
    await admin.spaces.updateChangeRequestById(space.id, cr.id, { description: text as never });
    const { data: cleared } = await admin.spaces.updateChangeRequestById(space.id, cr.id, { description: { object: 'document', data: {}, nodes: [] } as never });
    assert.equal(cleared.description, undefined);
  });

  test('any revision of the space reads like the current one, and its changes are against its parent', async () => {
    const { t } = e2e;
    const space = await buildSpace(t, { title: 'History' });
    const before = await writeMain(t, space.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: markdown('First version.') },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png(3, 2).toString('base64') }] },
    ]);
    const api = e2e.client().spaces;
    const { data: pages } = await api.listPagesInRevisionById(space.id, before);
    const guide = pages.pages[0]!;
    const after = await writeMain(t, space.id, [{ operation: 'update_page', page: guide.id, title: 'Guide to all', document: markdown('Second version.') }]);

    // The old revision still reads as it was.
    const { data: old } = await api.getPageInRevisionById(space.id, before, guide.id, { format: 'markdown' as never });
    assert.equal(old.title, 'Guide');
    assert.ok('markdown' in old && String(old.markdown).includes('First version.'));
    const { data: byPath } = await api.getPageInRevisionByPath(space.id, before, 'guide');
    assert.equal(byPath.id, guide.id);
    const { data: document } = await api.getPageDocumentInRevisionById(space.id, before, guide.id);
    assert.equal(document.object, 'document');
    assert.ok(JSON.stringify(document.nodes).includes('First version.'));
    const { data: files } = await api.listFilesInRevisionById(space.id, before);
    assert.equal(files.items.length, 1);
    const { data: file } = await api.getFileInRevisionById(space.id, before, files.items[0]!.id);
    assert.deepEqual(file, files.items[0]);
    await rejectsWith(api.getReusableContentInRevisionById(space.id, before, 'none'), 404);
    await rejectsWith(api.getReusableContentDocumentInRevisionById(space.id, before, 'none'), 404);
    await rejectsWith(api.getPageInRevisionById(space.id, 'no-such-revision', guide.id), 404);

    // The edit is one page_edited change: title (and the slug that follows it) and document (by hash).
    const { data: changes } = await api.getRevisionSemanticChanges(space.id, after);
    assert.equal(changes.mergedFrom, undefined);
    assert.deepEqual(
      changes.changes.map((c) => [c.type, 'attributes' in c ? Object.keys(c.attributes).sort() : []]),
      [['page_edited', ['document', 'slug', 'title']]],
    );
    const { data: created } = await api.getRevisionSemanticChanges(space.id, before, { limit: 1 });
    assert.equal(created.changes.length, 1);
    assert.equal(created.more, 1);

    // An outsider sees none of it.
    const outsider = await t.outsider();
    await rejectsWith(e2e.client(outsider.token).spaces.getRevisionSemanticChanges(space.id, after), 404);
    await rejectsWith(e2e.client(outsider.token).spaces.getReviewsByChangeRequestId(space.id, '1'), 404);
  });

  test('every exchange conformed to the official spec', () => {
    e2e.assertConformed(OPERATIONS);
  });
});

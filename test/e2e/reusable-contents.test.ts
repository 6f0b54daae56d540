import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildSpace } from '../factories.ts';

/**
 * Reusable contents over real HTTP (issue 46): written by the batch of content changes (insert, update and
 * delete_reusable_content, Quire's operations: GitBook's API names none) in a change request and on the live
 * space, read by the official client (getReusableContentById, getReusableContentInChangeRequestById, a
 * revision's reads and its `reusableContents`), merged with their change request, and refused as pages are:
 * 404 for what is not there or another organization's caller, 400 naming the field, 403 for a reader's write.
 * Writes go by fetch (the batch is Quire's), reads by the official client, every exchange checked against the spec.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const OPERATIONS = [
  'getReusableContentById',
  'getReusableContentInChangeRequestById',
  'getReusableContentInRevisionById',
  'getReusableContentDocumentInRevisionById',
  'getRevisionById',
  'getRevisionOfChangeRequestById',
  'getCurrentRevision',
  'getRevisionSemanticChanges',
  'getChangeRequestChanges',
];

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const texts = (document: Json): string[] => (document?.nodes ?? []).map((n: Json) => n.nodes.map((t: Json) => t.leaves.map((l: Json) => l.text).join('')).join(''));
const include = (id: string) => ({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } });

describe('reusable contents through the official client', { timeout: 300_000 }, () => {
  const e2e = e2eSession();

  async function post(path: string, changes: unknown[], token = e2e.t.admin.token): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${e2e.endpoint}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await response.json()) as Json;
    // Every refusal has the one error shape: the code, and a message naming what is wrong.
    if (response.status >= 400) assert.deepEqual(Object.keys(body.error ?? {}).sort(), ['code', 'message'], JSON.stringify(body));
    return { status: response.status, body };
  }
  const live = (spaceId: string, changes: unknown[], token?: string) => post(`/spaces/${spaceId}/content`, changes, token);
  const inChangeRequest = (spaceId: string, crId: string, changes: unknown[], token?: string) => post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, changes, token);

  async function written(result: Promise<{ status: number; body: Json }>): Promise<Json> {
    const { status, body } = await result;
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  test('written on the live space, read by id, listed in the revision, included by a page', async () => {
    const api = e2e.latest();
    const space = await buildSpace(e2e.t, { title: 'Snippets' });
    const created = await written(
      live(space.id, [
        { operation: 'insert_reusable_content', reusableContent: 'warning', title: 'Warning', document: { document: doc(paragraph('Mind the gap.')) } },
        { operation: 'insert_page', title: 'Guide', document: { document: doc(paragraph('Before.'), include('warning'), paragraph('After.')) } },
      ]),
    );
    assert.deepEqual(
      created.changes.map((c: Json) => c.object),
      ['created_page', 'created_reusable_content'],
    );
    assert.equal(created.changes[1].reusableContent, 'warning');

    const { data: content } = await api.spaces.getReusableContentById(space.id, 'warning');
    assert.equal(content.id, 'warning');
    assert.equal(content.title, 'Warning');
    const documentId = (content as Json).document as string;
    assert.ok(documentId, 'its document is named by id');
    assert.deepEqual(texts((await api.spaces.getDocumentById(space.id, documentId)).data), ['Mind the gap.']);

    const { data: revision } = await api.spaces.getCurrentRevision(space.id);
    assert.deepEqual(revision.reusableContents, [{ id: 'warning', title: 'Warning', document: documentId }]);
    assert.deepEqual(
      revision.pages.map((p) => p.title),
      ['Guide'],
      'a reusable content is no page of the tree',
    );
    assert.deepEqual((await api.spaces.getReusableContentInRevisionById(space.id, revision.id, 'warning')).data, content);
    assert.deepEqual(texts((await api.spaces.getReusableContentDocumentInRevisionById(space.id, revision.id, 'warning')).data), ['Mind the gap.']);

    // A page's markdown names what it includes, as Git Sync writes it, so that it is written back as it was read.
    const guideId = (revision.pages[0] as Json).id;
    const { data: guide } = (await api.spaces.getPageById(space.id, guideId, { format: 'markdown' })) as unknown as { data: { markdown: string } };
    assert.match(guide.markdown, /Before\.\s+\{% include "warning" %\}\s+After\./);

    // Edited: a new revision holds the new title and document; the old revision keeps the old ones.
    const edited = await written(live(space.id, [{ operation: 'update_reusable_content', reusableContent: 'warning', title: 'Caution', document: { markdown: 'Watch your step.' } }]));
    assert.deepEqual(edited.changes, [{ object: 'updated_reusable_content', reusableContent: 'warning' }]);
    assert.equal((await api.spaces.getReusableContentById(space.id, 'warning')).data.title, 'Caution');
    assert.deepEqual(texts((await api.spaces.getReusableContentDocumentInRevisionById(space.id, edited.revision, 'warning')).data), ['Watch your step.']);
    assert.equal((await api.spaces.getReusableContentInRevisionById(space.id, revision.id, 'warning')).data.title, 'Warning');
    const { data: editChanges } = await api.spaces.getRevisionSemanticChanges(space.id, edited.revision);
    assert.deepEqual(
      editChanges.changes.map((c) => c.type),
      ['reusable_content_edited'],
    );

    // Deleted: gone from the current revision, still in the older ones.
    const deleted = await written(live(space.id, [{ operation: 'delete_reusable_content', reusableContent: 'warning' }]));
    assert.deepEqual(deleted.changes, [{ object: 'deleted_reusable_content', reusableContent: 'warning' }]);
    await rejectsWith(api.spaces.getReusableContentById(space.id, 'warning'), 404);
    assert.deepEqual((await api.spaces.getRevisionById(space.id, deleted.revision)).data.reusableContents, []);
    assert.equal((await api.spaces.getReusableContentInRevisionById(space.id, edited.revision, 'warning')).data.title, 'Caution');
  });

  test('added in a change request: read there, not live until merged, then live', async () => {
    const api = e2e.latest();
    const space = await buildSpace(e2e.t, { title: 'Drafts' });
    await written(live(space.id, [{ operation: 'insert_reusable_content', reusableContent: 'kept', title: 'Kept', document: { markdown: 'Kept words.' } }]));
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'A snippet' });
    const body = await written(
      inChangeRequest(space.id, cr.id, [
        { operation: 'insert_reusable_content', title: 'Footer', document: { markdown: 'Written by the team.' } },
        { operation: 'update_reusable_content', reusableContent: 'kept', title: 'Kept, renamed' },
      ]),
    );
    const footerId = body.changes.find((c: Json) => c.object === 'created_reusable_content').reusableContent as string;
    assert.ok(footerId, 'an id is given when none is asked for');

    const { data: inCr } = await api.spaces.getReusableContentInChangeRequestById(space.id, cr.id, footerId);
    assert.equal(inCr.title, 'Footer');
    assert.equal((await api.spaces.getReusableContentInChangeRequestById(space.id, cr.id, 'kept')).data.title, 'Kept, renamed', 'its own version hides the base one');
    const { data: crRevision } = await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id);
    assert.deepEqual(
      crRevision.reusableContents.map((r) => r.title),
      ['Footer', 'Kept, renamed'],
    );
    await rejectsWith(api.spaces.getReusableContentById(space.id, footerId), 404);
    const { data: crChanges } = await api.spaces.getChangeRequestChanges(space.id, cr.id);
    assert.deepEqual(
      crChanges.changes.map((c) => c.type).sort(),
      ['reusable_content_created', 'reusable_content_edited'],
      'no page changed',
    );
    assert.equal((await api.spaces.getReusableContentById(space.id, 'kept')).data.title, 'Kept');

    // Deleted in the change request: hidden there, still live.
    const second = await api.spaces.createChangeRequest(space.id, { subject: 'Remove' });
    await written(inChangeRequest(space.id, second.data.id, [{ operation: 'delete_reusable_content', reusableContent: 'kept' }]));
    await rejectsWith(api.spaces.getReusableContentInChangeRequestById(space.id, second.data.id, 'kept'), 404);
    assert.deepEqual((await api.spaces.getRevisionOfChangeRequestById(space.id, second.data.id)).data.reusableContents, []);

    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    assert.equal(merged.result, 'merge');
    assert.equal((await api.spaces.getReusableContentById(space.id, footerId)).data.title, 'Footer');
    assert.equal((await api.spaces.getReusableContentById(space.id, 'kept')).data.title, 'Kept, renamed');
    const { data: current } = await api.spaces.getCurrentRevision(space.id);
    assert.deepEqual(
      current.reusableContents.map((r) => r.title),
      ['Footer', 'Kept, renamed'],
    );
    assert.deepEqual(current.pages, [], 'the merge made no page of them');
  });

  test('refusals: unknown ids, other organizations, bad fields, readers', async () => {
    const { t } = e2e;
    const api = e2e.latest();
    const space = await buildSpace(t, { title: 'Guarded' });
    const first = await written(live(space.id, [{ operation: 'insert_reusable_content', reusableContent: 'note', title: 'Note', document: { markdown: 'A note.' } }]));
    const { data: cr } = await api.spaces.createChangeRequest(space.id, {});

    await rejectsWith(api.spaces.getReusableContentById(space.id, 'nothing'), 404);
    await rejectsWith(api.spaces.getReusableContentInChangeRequestById(space.id, cr.id, 'nothing'), 404);
    await rejectsWith(api.spaces.getReusableContentInRevisionById(space.id, first.revision, 'nothing'), 404);
    await rejectsWith(api.spaces.getReusableContentDocumentInRevisionById(space.id, first.revision, 'nothing'), 404);
    const outsider = e2e.latest((await t.outsider()).token);
    await rejectsWith(outsider.spaces.getReusableContentById(space.id, 'note'), 404);
    await rejectsWith(outsider.spaces.getReusableContentInRevisionById(space.id, first.revision, 'note'), 404);
    await rejectsWith(e2e.latest(null).spaces.getReusableContentById(space.id, 'note'), 401);
    // A reusable content is no page, and a page is no reusable content.
    const page = await written(live(space.id, [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Text.' } }]));
    const pageId = page.changes[0].page.id as string;
    await rejectsWith(api.spaces.getReusableContentById(space.id, pageId), 404);
    await rejectsWith(api.spaces.getPageById(space.id, 'note'), 404);

    const refused = async (result: Promise<{ status: number; body: Json }>, status: number, mentions: string) => {
      const { status: got, body } = await result;
      assert.equal(got, status, JSON.stringify(body));
      assert.equal(body.error.code, status);
      assert.ok(body.error.message.includes(mentions), `"${body.error.message}" should mention ${mentions}`);
    };
    await refused(live(space.id, [{ operation: 'update_reusable_content', reusableContent: 'nothing', title: 'X' }]), 404, '/reusableContent');
    await refused(live(space.id, [{ operation: 'delete_reusable_content', reusableContent: 'nothing' }]), 404, '/reusableContent');
    await refused(live(space.id, [{ operation: 'update_reusable_content', reusableContent: pageId, title: 'X' }]), 404, '/reusableContent');
    await refused(live(space.id, [{ operation: 'update_page', page: 'note', title: 'X' }]), 400, 'no page "note"');
    await refused(live(space.id, [{ operation: 'update_reusable_content', reusableContent: 'note', title: '' }]), 400, '/title');
    await refused(live(space.id, [{ operation: 'insert_reusable_content', title: 42 }]), 400, '/title');
    await refused(live(space.id, [{ operation: 'insert_reusable_content', title: 'Bad', document: { document: { object: 'document', nodes: [{ object: 'block' }] } } }]), 400, '/document');
    await refused(live(space.id, [{ operation: 'insert_reusable_content', reusableContent: 'note', title: 'Twice' }]), 400, '/reusableContent');
    await refused(inChangeRequest(space.id, cr.id, [{ operation: 'update_reusable_content', reusableContent: 'nothing', document: { markdown: 'x' } }]), 404, '/reusableContent');
    // Nothing of a refused batch is written: the change before the bad one is not kept either.
    await refused(
      live(space.id, [
        { operation: 'update_reusable_content', reusableContent: 'note', title: 'Renamed' },
        { operation: 'delete_reusable_content', reusableContent: 'nothing' },
      ]),
      404,
      'changes[1]',
    );
    assert.equal((await api.spaces.getReusableContentById(space.id, 'note')).data.title, 'Note');

    const reader = await t.member('read');
    await refused(live(space.id, [{ operation: 'update_reusable_content', reusableContent: 'note', title: 'Mine' }], reader.token), 403, '');
    await refused(inChangeRequest(space.id, cr.id, [{ operation: 'insert_reusable_content', title: 'Mine' }], reader.token), 403, '');
    assert.equal((await e2e.latest(reader.token).spaces.getReusableContentById(space.id, 'note')).data.title, 'Note', 'a reader reads them');
    const other = await t.outsider();
    await refused(live(space.id, [{ operation: 'update_reusable_content', reusableContent: 'note', title: 'Theirs' }], other.token), 404, '');
  });

  test('every exchange conformed to the spec, and every operation answered a success', () => {
    e2e.assertConformed(OPERATIONS);
  });
});

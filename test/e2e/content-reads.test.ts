import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildOpenAPISpec, buildSpace, markdown, writeContent, writeMain } from '../factories.ts';

/**
 * Content reads of the newest official client, over real HTTP, every exchange checked against the official
 * spec: a document by its id, the URLs a page is read at (its meta links) in the space, a revision and a change
 * request, one review of a change request, and the raw text of an OpenAPI spec's latest version. Each answers
 * its success and its main refusals (401 without a token, 404 for another organization's caller or for what
 * is not there, 403 where a member lacks the role, 400 naming the field).
 */

const OPERATIONS = [
  'getDocumentById',
  'listSpacePageMetaLinks',
  'listRevisionPageMetaLinks',
  'listChangeRequestPageMetaLinks',
  'getChangeRequestReviewById',
  'getLatestOpenAPISpecVersionContentRaw',
];

type PageWithDocument = { id: string; path: string; documentId?: string; document?: unknown };

describe('content reads and lookups through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();

  test("a document is read by its id in the space whose pages held it, and nowhere else", async () => {
    const { t } = session;
    const api = session.latest();
    const space = await buildSpace(t, { title: 'Documents' });
    await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Notes', document: markdown('The first words.') }]);
    const { data: pages } = await api.spaces.listPages(space.id);
    const notesId = pages.pages[0]!.id;
    const { data: page } = (await api.spaces.getPageById(space.id, notesId)) as unknown as { data: PageWithDocument };
    assert.ok(page.documentId, 'a document page names its document');

    const { data: document } = await api.spaces.getDocumentById(space.id, page.documentId!);
    assert.equal(document.object, 'document');
    assert.deepEqual(document, page.document, 'the same document the page read gives');
    assert.deepEqual((await api.spaces.getDocumentById(space.id, page.documentId!, { schema: 'next' })).data, document, 'one schema here');

    // An edit writes a new document; the old one stays readable: the space's history holds it.
    await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'update_page', page: notesId, document: markdown('Other words.') }] } });
    const { data: edited } = (await api.spaces.getPageById(space.id, notesId)) as unknown as { data: PageWithDocument };
    assert.notEqual(edited.documentId, page.documentId);
    assert.deepEqual((await api.spaces.getDocumentById(space.id, edited.documentId!)).data, edited.document);
    assert.deepEqual((await api.spaces.getDocumentById(space.id, page.documentId!)).data, document);

    // A member who reads the space reads its documents; another space's document is not this space's.
    const reader = await t.member('read');
    assert.deepEqual((await session.latest(reader.token).spaces.getDocumentById(space.id, page.documentId!)).data, document);
    const other = await buildSpace(t, { title: 'Elsewhere' });
    await writeMain(t, other.id, [{ operation: 'insert_page', title: 'Secret', document: markdown('Words of another space.') }]);
    const { data: otherPage } = (await api.spaces.getPageById(other.id, (await api.spaces.listPages(other.id)).data.pages[0]!.id)) as unknown as { data: PageWithDocument };
    await rejectsWith(api.spaces.getDocumentById(space.id, otherPage.documentId!), 404);
    await rejectsWith(api.spaces.getDocumentById(space.id, 'no-such-document'), 404);
    await rejectsWith(session.latest((await t.outsider()).token).spaces.getDocumentById(space.id, page.documentId!), 404);
    await rejectsWith(session.latest(null).spaces.getDocumentById(space.id, page.documentId!), 401);
    await rejectsWith(api.spaces.getDocumentById(space.id, page.documentId!, { schema: 'older' as never }), 400);
  });

  test('meta links: where a page is read, in each published site-space of its space, as the reader serves it', async () => {
    const { t, endpoint } = session;
    const api = session.latest();
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Handbook' });
    await writeMain(t, space.id, [
      { operation: 'insert_page', title: 'Welcome', document: markdown('Hello.') },
      { operation: 'insert_page', title: 'Guide', document: markdown('The guide.') },
      { operation: 'insert_page', title: 'More', type: 'group', document: markdown('') },
    ]);
    const byTitle = async () => new Map((await api.spaces.listPages(space.id)).data.pages.map((p) => [p.title, p as unknown as PageWithDocument]));
    const pages = await byTitle();
    const [welcome, guide, more] = [pages.get('Welcome')!, pages.get('Guide')!, pages.get('More')!];

    // Not published anywhere: no URL to name.
    assert.deepEqual((await api.spaces.listSpacePageMetaLinks(space.id, guide.id)).data, {});

    const { data: site } = await api.orgs.createSite(org, { title: 'Handbook site', spaces: [space.id] });
    await api.orgs.updateSiteById(org, site.id, { basename: 'meta-handbook' });
    await api.orgs.publishSite(org, site.id);
    const root = `${endpoint}/sites/meta-handbook/`;
    const { data: links } = await api.spaces.listSpacePageMetaLinks(space.id, guide.id);
    assert.deepEqual(links, { canonical: { kind: 'url', url: `${root}${guide.path}` } });
    assert.equal((await api.spaces.getSpaceById(space.id)).data.urls.published, root, 'the canonical URL is under the space’s published URL');
    // The first page is read at the site-space's own URL, as the reader addresses it.
    assert.deepEqual((await api.spaces.listSpacePageMetaLinks(space.id, welcome.id)).data, { canonical: { kind: 'url', url: root } });
    // The URL is where the reader shows the page.
    const served = await fetch(links.canonical!.kind === 'url' ? links.canonical!.url : '');
    assert.equal(served.status, 200);
    assert.match(await served.text(), /The guide\./);
    // A group is no page of its own to read.
    assert.deepEqual((await api.spaces.listSpacePageMetaLinks(space.id, more.id)).data, {});

    // A second published site showing the space (made later: the first site made stays the canonical one):
    // the same page there is an alternate.
    t.clock.advance(60_000);
    const { data: mirror } = await api.orgs.createSite(org, { title: 'Mirror', spaces: [space.id] });
    await api.orgs.updateSiteById(org, mirror.id, { basename: 'meta-mirror' });
    await api.orgs.publishSite(org, mirror.id);
    assert.deepEqual((await api.spaces.listSpacePageMetaLinks(space.id, guide.id)).data, {
      canonical: { kind: 'url', url: `${root}${guide.path}` },
      alternates: [{ kind: 'url', url: `${endpoint}/sites/meta-mirror/${guide.path}` }],
    });

    // A revision's page is where its path in that revision leads; a change request's new page, where it will be.
    const { data: revision } = await api.spaces.getCurrentRevision(space.id);
    assert.deepEqual((await api.spaces.listRevisionPageMetaLinks(space.id, revision.id, guide.id)).data, (await api.spaces.listSpacePageMetaLinks(space.id, guide.id)).data);
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'A draft' });
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Draft', document: markdown('Soon.') }]);
    const draft = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages.find((p) => p.title === 'Draft') as unknown as PageWithDocument;
    assert.deepEqual((await api.spaces.listChangeRequestPageMetaLinks(space.id, cr.id, draft.id)).data, {
      canonical: { kind: 'url', url: `${root}${draft.path}` },
      alternates: [{ kind: 'url', url: `${endpoint}/sites/meta-mirror/${draft.path}` }],
    });
    await rejectsWith(api.spaces.listSpacePageMetaLinks(space.id, draft.id), 404);

    // Unpublishing takes the URLs away.
    await api.orgs.unpublishSite(org, site.id);
    assert.deepEqual((await api.spaces.listSpacePageMetaLinks(space.id, guide.id)).data, { canonical: { kind: 'url', url: `${endpoint}/sites/meta-mirror/${guide.path}` } });

    // Refusals: a member who reads the space may read them; others cannot see the space.
    const reader = await t.member('read');
    assert.ok((await session.latest(reader.token).spaces.listSpacePageMetaLinks(space.id, guide.id)).data.canonical);
    const outsider = session.latest((await t.outsider()).token);
    await rejectsWith(outsider.spaces.listSpacePageMetaLinks(space.id, guide.id), 404);
    await rejectsWith(outsider.spaces.listRevisionPageMetaLinks(space.id, revision.id, guide.id), 404);
    await rejectsWith(outsider.spaces.listChangeRequestPageMetaLinks(space.id, cr.id, draft.id), 404);
    await rejectsWith(session.latest(null).spaces.listSpacePageMetaLinks(space.id, guide.id), 401);
    await rejectsWith(api.spaces.listRevisionPageMetaLinks(space.id, revision.id, 'no-such-page'), 404);
  });

  test('one review of a change request, current or outdated, with its comment', async () => {
    const { t } = session;
    const api = session.latest();
    const space = await buildSpace(t, { title: 'Reviewed' });
    await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Welcome', document: markdown('Hello.') }]);
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'A change' });
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'New', document: markdown('New words.') }]);
    const reviewer = await t.member('review');
    const asReviewer = session.latest(reviewer.token);
    const { data: first } = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'changes-requested', comment: { markdown: 'Needs an example.' } } as never);

    const { data: read } = await api.spaces.getChangeRequestReviewById(space.id, cr.id, first.id);
    assert.equal(read.id, first.id);
    assert.equal(read.status, 'changes-requested');
    assert.equal(read.outdated, false);
    assert.equal(read.reviewer.id, reviewer.userId);
    assert.equal(read.comment?.postedBy.id, reviewer.userId);
    assert.equal(read.urls.location, `${session.endpoint}/v1/spaces/${space.id}/change-requests/${cr.id}/reviews/${first.id}`);
    const { data: asMarkdown } = await api.spaces.getChangeRequestReviewById(space.id, cr.id, first.id, { format: 'markdown' });
    assert.match(JSON.stringify(asMarkdown.comment?.body), /Needs an example\./);

    // Reviewing again makes the first review outdated; both stay readable by id.
    t.clock.advance(1000);
    const { data: second } = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' } as never);
    assert.equal((await api.spaces.getChangeRequestReviewById(space.id, cr.id, first.id)).data.outdated, true);
    assert.equal((await api.spaces.getChangeRequestReviewById(space.id, cr.id, second.id)).data.status, 'approved');

    // A reader of the space reads it; a review of another change request is not this one's; others see nothing.
    const reader = await t.member('read');
    assert.equal((await session.latest(reader.token).spaces.getChangeRequestReviewById(space.id, cr.id, second.id)).data.id, second.id);
    const { data: otherCr } = await api.spaces.createChangeRequest(space.id, { subject: 'Another change' });
    await rejectsWith(api.spaces.getChangeRequestReviewById(space.id, otherCr.id, second.id), 404);
    await rejectsWith(api.spaces.getChangeRequestReviewById(space.id, cr.id, 'no-such-review'), 404);
    await rejectsWith(session.latest((await t.outsider()).token).spaces.getChangeRequestReviewById(space.id, cr.id, second.id), 404);
    await rejectsWith(session.latest(null).spaces.getChangeRequestReviewById(space.id, cr.id, second.id), 401);
    await rejectsWith(api.spaces.getChangeRequestReviewById(space.id, cr.id, second.id, { format: 'html' as never }), 400);
  });

  test("the latest version of an OpenAPI spec as it was given: its text byte for byte, and whether it is JSON or YAML", async () => {
    const { t } = session;
    const org = t.org.id;
    const raw = (token?: string | null) => (slug: string) =>
      session.latest(token).request<{ text: string; format: 'json' | 'yaml' }>({ path: `/orgs/${org}/openapi/${slug}/versions/latest/content/raw`, method: 'GET', secure: true, format: 'json' });
    const yaml = "openapi: 3.1.0\ninfo:\n  title: Pets   # the zoo's\n  version: '1'\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: All the pets }\n";
    const pets = await buildOpenAPISpec(t, 'raw-pets', { text: yaml });
    assert.ok(pets.lastVersion, JSON.stringify(pets));
    assert.deepEqual((await raw()('raw-pets')).data, { text: yaml, format: 'yaml' });

    const json = JSON.stringify({ openapi: '3.1.0', info: { title: 'Shop', version: '2' }, paths: { '/cart': { get: { responses: { '204': { description: 'Empty' } } } } } }, null, 4);
    await buildOpenAPISpec(t, 'raw-shop', { text: json });
    assert.deepEqual((await raw()('raw-shop')).data, { text: json, format: 'json' });
    // A new version is the latest.
    const newer = yaml.replace("version: '1'", "version: '2'");
    await t.api('PUT', `/v1/orgs/${org}/openapi/raw-pets`, { body: { source: { text: newer } } });
    await t.app.jobs.runDue();
    assert.equal((await raw()('raw-pets')).data.text, newer);

    // Members with a role read specs; a guest is refused; outside the organization, nothing is there.
    assert.equal((await raw((await t.member('read')).token)('raw-pets')).data.format, 'yaml');
    await rejectsWith(raw((await t.member(null)).token)('raw-pets'), 403);
    await rejectsWith(raw((await t.outsider()).token)('raw-pets'), 404);
    await rejectsWith(raw(null)('raw-pets'), 401);
    await rejectsWith(raw()('no-such-spec'), 404);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});

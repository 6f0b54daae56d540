import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpace, editLive, mergeChangeRequest, writeContent } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';
import { links } from '../../../test/reader-documents.ts';
import { watchStatements } from '../../db/statement-watch.ts';
import { validateChanges } from '../content/apply-changes.ts';
import { commitLiveChanges } from '../content/service.ts';
import { code, doc } from '../content/document/test-fixtures.ts';
import { backgroundHighlightingDone, queuedHighlightJobs } from './background-highlighting.ts';
import { forgetHighlightedCode, highlightOrJob, languageOf, prepareHighlighter } from './highlight.ts';
import { highlightedAhead } from './highlight-ahead.ts';
import { HighlightBudget } from './highlight-budget.ts';
import { renderDocument } from './render-document.tsx';

let unique = 0;
/** A TypeScript snippet no other test (nor an earlier run of this one) has highlighted. */
function freshSnippet(): string {
  unique += 1;
  const name = `f${Date.now().toString(36)}_${unique}`;
  return `export function ${name}(x: number): number {\n  const y = x * ${unique};\n  return y + 1; // ${name}\n}`;
}

const TS = languageOf('ts')!;
const isCached = (snippet: string) => Array.isArray(highlightOrJob(TS, snippet));
/** Code blocks of a rendered page, and how many of them show no token span. */
function codeBlocks(html: string): { blocks: number; plain: number } {
  const pres = html.match(/<pre[^>]*data-language[\s\S]*?<\/pre>/g) ?? [];
  return { blocks: pres.length, plain: pres.filter((pre) => !pre.includes('class="c-')).length };
}

describe('highlighting within a render budget', () => {
  before(() => prepareHighlighter([TS]));

  test('blocks past the budget are shown plain and escaped, then highlighted in the background', async () => {
    const snippets = [freshSnippet(), `${freshSnippet()}\nconst tag = '<b>';`];
    const document = doc(...snippets.map((s) => code(s.split('\n'), { syntax: 'ts' })));
    const budget = new HighlightBudget(0);
    const html = await renderDocument(document, links, { highlighting: budget });
    assert.equal(budget.complete, false);
    assert.equal(budget.deferred, 2);
    assert.deepEqual(codeBlocks(html), { blocks: 2, plain: 2 });
    assert.match(html, /<span class="line">const tag = '&lt;b>';<\/span>/, 'plain code is escaped, line by line');
    assert.match(html, /data-language="ts"/, 'a plain block keeps its markup and language');

    await backgroundHighlightingDone();
    assert.equal(queuedHighlightJobs(), 0);
    const next = new HighlightBudget(0);
    const whole = await renderDocument(document, links, { highlighting: next });
    assert.equal(next.complete, true, 'cached tokens cost nothing against the budget');
    assert.deepEqual(codeBlocks(whole), { blocks: 2, plain: 0 });
    assert.equal(whole, await renderDocument(document, links), 'the same HTML as a render without a budget');
  });

  test('a block the budget stopped in resumes in the background where the render left it', async () => {
    const snippet = freshSnippet();
    const budget = new HighlightBudget(0);
    assert.equal(budget.tokensOf(TS, snippet), null);
    assert.equal(queuedHighlightJobs() >= 1, true);
    await backgroundHighlightingDone();
    assert.equal(isCached(snippet), true);
  });

  test('a render within its budget highlights everything and is complete', async () => {
    const document = doc(code(freshSnippet().split('\n'), { syntax: 'ts' }));
    const budget = new HighlightBudget(10_000);
    const html = await renderDocument(document, links, { highlighting: budget });
    assert.equal(budget.complete, true);
    assert.deepEqual(codeBlocks(html), { blocks: 1, plain: 0 });
  });
});

describe('a published page whose new code does not fit the budget', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  test('is sent with plain blocks, not cached and without an ETag; after the background work it is whole and cached', async () => {
    // Far more new code than one render's budget can tokenize (each block takes a fraction of a millisecond).
    const blocks = Array.from({ length: 150 }, () => `\`\`\`ts\n${freshSnippet()}\n\`\`\``).join('\n\n');
    const space = await buildSpace(t, { title: 'Code' });
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'Snippets', document: { markdown: blocks } }]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Code site', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    // Publishing highlighted the code ahead of readers: forgotten, so that this reader meets it new.
    await highlightedAhead(t.app.ctx);
    forgetHighlightedCode();

    const first = await t.app.inject({ method: 'GET', url: `/sites/${site.id}/` });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers.etag, undefined);
    assert.equal(first.headers['cache-control'], 'no-store');
    const shown = codeBlocks(first.body);
    assert.equal(shown.blocks, 150);
    assert.ok(shown.plain > 0, 'some blocks are plain');

    await backgroundHighlightingDone();

    const whole = await t.app.inject({ method: 'GET', url: `/sites/${site.id}/` });
    assert.equal(whole.statusCode, 200);
    assert.deepEqual(codeBlocks(whole.body), { blocks: 150, plain: 0 });
    const etag = whole.headers.etag;
    assert.ok(typeof etag === 'string' && etag.length > 2);
    assert.match(String(whole.headers['cache-control']), /must-revalidate/);
    const revalidated = await t.app.inject({ method: 'GET', url: `/sites/${site.id}/`, headers: { 'if-none-match': etag } });
    assert.equal(revalidated.statusCode, 304, 'the whole page is cached under its ETag');
  });
});

describe('code highlighted ahead of readers', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const codePage = (title: string, snippet: string) => ({ operation: 'insert_page', title, document: { markdown: `Intro.\n\n\`\`\`ts\n${snippet}\n\`\`\`` } });

  test('publishing a site highlights the code of its spaces', async () => {
    const snippet = freshSnippet();
    const space = await buildSpace(t, { title: 'Ahead' });
    await editLive(t, space.id, [codePage('Page', snippet)]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Ahead site', visibility: 'public', spaces: [space.id] } }), 201);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(snippet), false, 'an unpublished site is not read ahead');

    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(snippet), true);
  });

  test('a merge or a live edit into a space a published site shows highlights its new code; one no site shows is left alone', async () => {
    const published = await buildSpace(t, { title: 'Published' });
    await editLive(t, published.id, [codePage('Page', freshSnippet())]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Merge site', visibility: 'public', spaces: [published.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    await highlightedAhead(t.app.ctx);

    const merged = freshSnippet();
    const cr = await buildChangeRequest(t, published.id);
    await writeContent(t, published.id, cr.id, [codePage('New page', merged)]);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(merged), false, 'a change request is not published');
    await mergeChangeRequest(t, published.id, cr.id);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(merged), true);

    const live = freshSnippet();
    await commitLiveChanges(t.app.ctx, { kind: 'user', userId: t.admin.userId, tokenId: 'test' }, { id: published.id, organization_id: t.org.id }, validateChanges([codePage('Live page', live)]), new Map());
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(live), true, 'a live edit (an import, a translation) publishes too');

    const unpublished = await buildSpace(t, { title: 'Draft' });
    const draft = freshSnippet();
    await editLive(t, unpublished.id, [codePage('Page', draft)]);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(draft), false);
  });

  test('a space added to a published site, as a site-space, a section or in place of another, has its code highlighted; to an unpublished site, not', async () => {
    const spaceWith = async (title: string, snippet: string) => {
      const space = await buildSpace(t, { title });
      await editLive(t, space.id, [codePage('Page', snippet)]);
      return space;
    };
    const first = await spaceWith('First', freshSnippet());
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Growing site', visibility: 'public', spaces: [first.id] } }), 201);
    const draftSite = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Draft site', visibility: 'public', spaces: [first.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    await highlightedAhead(t.app.ctx);

    const unpublished = freshSnippet();
    const notShown = await spaceWith('Not shown', unpublished);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${draftSite.id}/site-spaces`, { body: { spaceId: notShown.id } }), 201);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(unpublished), false, 'a site that is not published is not read ahead');

    const added = freshSnippet();
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/site-spaces`, { body: { spaceId: (await spaceWith('Added', added)).id } }), 201);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(added), true, 'a site-space added');

    const section = freshSnippet();
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/sections`, { body: { spaceId: (await spaceWith('Section', section)).id, title: 'API' } }), 201);
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(section), true, 'a section added with its space');

    const replacing = freshSnippet();
    const siteSpaceId = created.siteSpaces?.[0]?.id;
    assert.ok(typeof siteSpaceId === 'string', 'the section names its site-space');
    ok(await t.api('PATCH', `/v1/orgs/${t.org.id}/sites/${site.id}/site-spaces/${siteSpaceId}`, { body: { spaceId: (await spaceWith('Replacing', replacing)).id } }));
    await highlightedAhead(t.app.ctx);
    assert.equal(isCached(replacing), true, 'a site-space pointed at another space');
  });

  test('a live edit of one page of a published space reads that one document: the others were warmed before', async () => {
    const snippets = [freshSnippet(), freshSnippet(), freshSnippet(), freshSnippet()];
    const space = await buildSpace(t, { title: 'Many pages' });
    const pageIds = await editLive(t, space.id, snippets.map((snippet, i) => codePage(`Page ${i}`, snippet)));
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Many site', visibility: 'public', spaces: [space.id] } }), 201);
    const documentsRead = async (write: () => Promise<unknown>) => {
      const statements: string[] = [];
      const stop = watchStatements(t.db, { statement: (sql) => statements.push(sql) });
      assert.ok(stop, 'the test database reports its statements');
      try {
        await write();
        await highlightedAhead(t.app.ctx);
      } finally {
        stop();
      }
      return statements.filter((sql) => /from "documents" where "id" = /.test(sql)).length;
    };
    assert.equal(await documentsRead(() => t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`)), 4);
    for (const snippet of snippets) assert.equal(isCached(snippet), true);

    const live = (pageId: string, snippet: string) => () =>
      commitLiveChanges(t.app.ctx, { kind: 'user', userId: t.admin.userId, tokenId: 'test' }, { id: space.id, organization_id: t.org.id }, validateChanges([{ operation: 'update_page', page: pageId, document: { markdown: `Edited.\n\n\`\`\`ts\n${snippet}\n\`\`\`` } }]), new Map());
    const first = freshSnippet();
    assert.equal(await documentsRead(live(pageIds[0]!, first)), 1);
    assert.equal(isCached(first), true);
    const second = freshSnippet();
    assert.equal(await documentsRead(live(pageIds[2]!, second)), 1, 'the second edit reads only the page it changed');
    assert.equal(isCached(second), true);
  });
});

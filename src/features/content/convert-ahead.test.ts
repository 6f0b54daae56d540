import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildPage, buildSpace, markdown, writeContent, writeMain } from '../../../test/factories.ts';
import { isoNow } from '../../platform/clock.ts';
import { applyBatch, convertAhead, validateChanges } from './apply-changes.ts';
import { findBranch, findRevision } from './branch-store.ts';
import { documentIdFor } from './document-store.ts';
import type { Document } from './document/types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Markdown large enough to be converted ahead: links first, then about 48 KB of paragraphs. */
function largeMarkdown(links: string): string {
  return `${links}\n\n${Array.from({ length: 600 }, (_, i) => `Paragraph ${i} of a long page, with enough words to weigh about a hundred bytes.`).join('\n\n')}`;
}

/** A document nobody's markdown converts to, to tell which document a write stored. */
const marker: Document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'converted ahead', marks: [] }] }] }] } as unknown as Document;

describe('converting a large batch before its write transaction', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function countDocuments(): Promise<number> {
    const row = await t.db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A space with a live page "Guide", and a batch inserting a large page linking to it and to a page the batch creates. */
  async function setup() {
    const space = await buildSpace(t, { title: 'Docs' });
    const guide = await buildPage(t, space.id, { title: 'Guide' });
    const body = largeMarkdown('See [the guide](guide.md) and [the intro](intro).');
    const changes = validateChanges([
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: markdown('Short.') },
      { operation: 'insert_page', title: 'Long', document: markdown(body) },
    ]);
    return { spaceId: space.id as string, guide, body, changes };
  }

  /** Applies the batch over the main line's head in a transaction, as a live write does, and returns its pages. */
  async function applyOnMain(spaceId: string, changes: ReturnType<typeof validateChanges>, conversions: Awaited<ReturnType<typeof convertAhead>>) {
    const ctx = t.app.ctx;
    return ctx.db.transaction().execute(async (trx) => {
      const branch = await findBranch(trx, spaceId);
      const head = await findRevision(trx, branch!.head_revision_id);
      return applyBatch(ctx, trx, head!, head!.id, changes, new Map(), isoNow(ctx.clock), { conversions });
    });
  }

  test('the dry run converts, gives out ids and writes nothing; the transaction takes its conversion and its ids', async () => {
    const { spaceId, body, changes } = await setup();
    const before = await countDocuments();
    const ahead = await convertAhead(t.app.ctx, spaceId, async (head) => head.id, changes, new Map(), isoNow(t.app.ctx.clock));
    assert.equal(await countDocuments(), before, 'a dry run stores no document');
    const converted = ahead.documents.get(body.replace(/^\s+/, ''));
    assert.ok(converted, `the long page was converted ahead (keys: ${[...ahead.documents.keys()].map((k) => k.slice(0, 20)).join(', ')})`);
    assert.equal(ahead.ids.length, 2, 'an id for the ref and one for the other page');
    const [introId] = ahead.ids;
    assert.deepEqual(converted.links.get('intro'), { kind: 'page', page: introId });
    assert.equal(converted.links.get('guide.md')?.kind, 'page');

    ahead.documents.set(body.replace(/^\s+/, ''), { ...converted, document: marker });
    const batch = await applyOnMain(spaceId, changes, ahead);
    const pages = [...batch.pages.values()];
    assert.deepEqual(
      pages.map((p) => p?.id),
      ahead.ids,
      'the real run gives out the dry run ids',
    );
    assert.equal(pages.find((p) => p?.title === 'Long')?.documentId, documentIdFor(marker), 'the converted document was taken, not converted again');
  });

  test('a link that resolves otherwise once the head moved converts the page again', async () => {
    const { spaceId, guide, body, changes } = await setup();
    const ahead = await convertAhead(t.app.ctx, spaceId, async (head) => head.id, changes, new Map(), isoNow(t.app.ctx.clock));
    const key = body.replace(/^\s+/, '');
    ahead.documents.set(key, { ...ahead.documents.get(key)!, document: marker });
    // Meanwhile, another write renames the page the link pointed to.
    await writeMain(t, spaceId, [{ operation: 'update_page', page: guide, slug: 'handbook' }]);
    const batch = await applyOnMain(spaceId, changes, ahead);
    const long = [...batch.pages.values()].find((p) => p?.title === 'Long');
    assert.notEqual(long?.documentId, documentIdFor(marker), 'converted again');
    const stored = await t.db.selectFrom('documents').select('body').where('id', '=', long!.documentId!).executeTakeFirstOrThrow();
    assert.match(stored.body, /"url":"guide\.md"/, 'the link now goes nowhere in the space, so it is kept as written');
  });

  test('a small batch is not converted ahead', async () => {
    const space = await buildSpace(t, { title: 'Docs' });
    const changes = validateChanges([{ operation: 'insert_page', title: 'Small', document: markdown('A [link](small.md).') }]);
    const ahead = await convertAhead(t.app.ctx, space.id, async (head) => head.id, changes, new Map(), isoNow(t.app.ctx.clock));
    assert.equal(ahead.documents.size, 0);
    assert.equal(ahead.ids.length, 0);
  });

  test('a large change-request write resolves its links to the pages it creates and to existing ones', async () => {
    const space = await buildSpace(t, { title: 'Docs' });
    const guide = await buildPage(t, space.id, { title: 'Guide' });
    const cr = await buildChangeRequest(t, space.id);
    const [intro, long] = await writeContent(t, space.id, cr.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: markdown('Short.') },
      { operation: 'insert_page', title: 'Long', document: markdown(largeMarkdown('See [the guide](guide.md) and [the intro](intro).')) },
    ]);
    const res = await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${long}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const text = JSON.stringify((res.body as Json).document);
    assert.ok(text.includes(`"page":"${intro}"`), 'links to the page the batch created');
    assert.ok(text.includes(`"page":"${guide}"`), 'links to the existing page');
  });
});

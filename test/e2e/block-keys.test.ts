import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eSession } from './e2e-session.ts';
import { buildSpace } from '../factories.ts';

/**
 * A block's key is its identity (issue 39), over real HTTP: two people save one page from the same revision, the
 * first having split a paragraph. A split whose two halves hold one key is refused, so it can never make the
 * second save drop the first one's sentence; and a page stored with such a split before keys were checked
 * still merges without losing it. Writes go by fetch (updateSpaceContent is Quire's), reads by the official client.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const paragraph = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const texts = (document: Json): string[] => (document?.nodes ?? []).map((n: Json) => n.nodes.map((t: Json) => t.leaves.map((l: Json) => l.text).join('')).join(''));

const BASE = doc(paragraph('K', 'Alpha paragraph.'), paragraph('L', 'Beta.'));
const A_SENTENCE = 'paragraph. NEW SENTENCE FROM A.';
const B_SAVE = doc(paragraph('K', 'Alpha paragraph. Extra from B.'), paragraph('L', 'Beta.'));

describe('block keys: a split saved by one person and a save by another from the same revision', { timeout: 120_000 }, () => {
  const e2e = e2eSession();

  async function save(spaceId: string, changes: unknown[]): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${e2e.endpoint}/v1/spaces/${spaceId}/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.t.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  /** A live space with the page [K "Alpha paragraph.", L "Beta."]: the page and the revision both people read. */
  async function page() {
    const space = await buildSpace(e2e.t, { title: 'Split' });
    const written = await save(space.id, [{ operation: 'insert_page', title: 'Guide', document: { document: BASE } }]);
    assert.equal(written.status, 200, JSON.stringify(written.body));
    return { spaceId: space.id as string, pageId: written.body.changes[0].page.id as string, base: written.body.revision as string };
  }

  const update = (pageId: string, base: string, document: unknown) => [{ operation: 'update_page', page: pageId, baseRevision: base, document: { document } }];

  async function shown(spaceId: string, pageId: string): Promise<string[]> {
    const { data } = await e2e.client().spaces.getPageById(spaceId, pageId);
    return texts((data as Json).document);
  }

  test("A's split holding one key twice is refused by name; split with a new key, it is kept and B's save of the same paragraph is a 409", async () => {
    const { spaceId, pageId, base } = await page();
    const copied = await save(spaceId, update(pageId, base, doc(paragraph('K', 'Alpha '), paragraph('K', A_SENTENCE), paragraph('L', 'Beta.'))));
    assert.equal(copied.status, 400, JSON.stringify(copied.body));
    assert.match(copied.body.error.message, /\/document\/document\/nodes\/1 repeats the key "K" of the node at \/nodes\/0/);

    const split = await save(spaceId, update(pageId, base, doc(paragraph('K', 'Alpha '), paragraph('A1', A_SENTENCE), paragraph('L', 'Beta.'))));
    assert.equal(split.status, 200, JSON.stringify(split.body));
    const second = await save(spaceId, update(pageId, base, B_SAVE));
    assert.equal(second.status, 409, JSON.stringify(second.body));
    assert.match(second.body.error.message, /block "K"/);
    assert.deepEqual(await shown(spaceId, pageId), ['Alpha ', A_SENTENCE, 'Beta.']);
  });

  test("a page stored with a split's key twice (before keys were checked) still keeps A's sentence: B's save is a 409 naming the block", async () => {
    const { spaceId, pageId, base } = await page();
    const { t } = e2e;
    const split = await save(spaceId, update(pageId, base, doc(paragraph('K', 'Alpha '), paragraph('A1', A_SENTENCE), paragraph('L', 'Beta.'))));
    assert.equal(split.status, 200, JSON.stringify(split.body));
    // As an old server stored it: the second half holds the first half's key.
    const { document_id: documentId } = await t.db.selectFrom('page_versions').select('document_id').where('page_id', '=', pageId).where('to_seq', 'is', null).executeTakeFirstOrThrow();
    const stored = JSON.parse((await t.db.selectFrom('documents').select('body').where('id', '=', documentId!).executeTakeFirstOrThrow()).body);
    stored.nodes[1].key = 'K';
    await t.db.updateTable('documents').set({ body: JSON.stringify(stored) }).where('id', '=', documentId!).execute();

    const second = await save(spaceId, update(pageId, base, B_SAVE));
    assert.equal(second.status, 409, JSON.stringify(second.body));
    assert.deepEqual([...new Set(second.body.conflicts.map((c: Json) => c.block))], ['K']);
    assert.equal(second.body.error.message.match(/block "K"/g).length, 1, second.body.error.message);
    assert.ok(texts(second.body.documents[0].document).includes(A_SENTENCE), 'the merged document offered holds the sentence');
    assert.deepEqual(await shown(spaceId, pageId), ['Alpha ', A_SENTENCE, 'Beta.']);
    e2e.assertConformed(['getPageById']);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpaceWithPages, markdown, writeContent, writeMain } from '../../../test/factories.ts';
import { isoNow } from '../../platform/clock.ts';
import { findBranch } from '../content/revisions.ts';
import { mergeAhead, stillValid } from './merging.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A long page of numbered paragraphs, `edits` replacing some of them: merging two such edits is a text merge. */
function longPage(edits: Record<number, string> = {}): string {
  return Array.from({ length: 300 }, (_, i) => edits[i] ?? `Paragraph ${i}, as it was written at first, long enough to weigh something.`).join('\n\n');
}

function titlesOf(pages: Json[]): string[] {
  return pages.flatMap((p) => [p.title, ...titlesOf(p.pages ?? [])]);
}

describe('merges computed before their transaction', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A change request and main that both edited the same long page, in different paragraphs. */
  async function divergedPage() {
    const { space, pages } = await buildSpaceWithPages(t, 'Long');
    const page = pages[0]!;
    await writeMain(t, space.id, [{ operation: 'update_page', page, document: markdown(longPage()) }]);
    const cr = await buildChangeRequest(t, space.id);
    await writeContent(t, space.id, cr.id, [{ operation: 'update_page', page, document: markdown(longPage({ 290: 'The change request rewrote paragraph 290.' })) }]);
    await writeMain(t, space.id, [{ operation: 'update_page', page, document: markdown(longPage({ 3: 'Main rewrote paragraph 3.' })) }]);
    return { spaceId: space.id as string, crId: cr.id as string, page };
  }

  test('a merge computed ahead holds while neither head moves, and not after a write to either side', async () => {
    const { spaceId, crId, page } = await divergedPage();
    const ctx = t.app.ctx;
    const sides = async () => {
      const main = (await findBranch(ctx.db, spaceId))!;
      const branch = (await findBranch(ctx.db, crId))!;
      return { main, branch, baseSeq: branch.base_seq! };
    };
    const ahead = await mergeAhead(ctx, spaceId, crId, { into: 'main', number: 1 }, isoNow(ctx.clock));
    assert.ok(ahead, 'computed');
    assert.equal(ahead.computed.outcome.conflicts.length, 0);
    assert.equal(ahead.computed.outcome.documents.length, 1, 'the page edited on both sides was merged as text');
    assert.equal(stillValid(ahead, await sides()), ahead.computed);

    await writeContent(t, spaceId, crId, [{ operation: 'insert_page', title: 'Late', document: markdown('Late.') }]);
    assert.equal(stillValid(ahead, await sides()), undefined, 'a write to the change request outdates it');
    const again = await mergeAhead(ctx, spaceId, crId, { into: 'main', number: 1 }, isoNow(ctx.clock));
    await writeMain(t, spaceId, [{ operation: 'update_page', page, title: 'Renamed on main' }]);
    assert.equal(stillValid(again, await sides()), undefined, 'a write to main outdates it');
  });

  test('a merge keeps both sides of a text merge, and a write racing it is either merged or refused', async () => {
    // The write starts some turns of the event loop before the merge (a negative lead) or after it.
    const writes = { seen: new Set<number>() };
    for (const [round, lead] of [-8, -4, -2, 0, 2, 6].entries()) {
      const { spaceId, crId, page } = await divergedPage();
      const write = () =>
        t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes: [{ operation: 'insert_page', title: `Late ${round}`, document: markdown('Late.') }] } });
      const merge = () => t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`);
      const first = lead < 0 ? write() : merge();
      for (let turn = 0; turn < Math.abs(lead); turn++) await nextTurn();
      const second = lead < 0 ? merge() : write();
      const [merged, written] = lead < 0 ? [await second, await first] : [await first, await second];
      writes.seen.add(written.status);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      assert.equal((merged.body as Json).result, 'merge');
      const content = (await t.api('GET', `/v1/spaces/${spaceId}/content`)).body as Json;
      const titles = titlesOf(content.pages);
      if (written.status === 200) assert.ok(titles.includes(`Late ${round}`), `round ${round}: a write that landed before the merge's transaction is merged`);
      else assert.equal(written.status, 409, `round ${round}: a write after the merge is refused: ${JSON.stringify(written.body)}`);
      const text = (await t.api('GET', `/v1/spaces/${spaceId}/content/page/${page}?format=markdown`)).body as Json;
      assert.match(text.markdown, /Main rewrote paragraph 3\./);
      assert.match(text.markdown, /The change request rewrote paragraph 290\./);
    }
    assert.ok(writes.seen.has(200), 'some writes landed before the merge');
  });

  test('updating a change request from main takes main\'s edit of the same page', async () => {
    const { spaceId, crId, page } = await divergedPage();
    const res = await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/update`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const text = (await t.api('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${page}?format=markdown`)).body as Json;
    assert.match(text.markdown, /Main rewrote paragraph 3\./);
    assert.match(text.markdown, /The change request rewrote paragraph 290\./);
  });
});

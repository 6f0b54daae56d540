import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startAiProvider, type AiProviderDouble } from '../ai-provider.ts';
import { editLive, markdown } from '../factories.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * Ask's retrieval by meaning (issue 45), with an embedding model set (AI_EMBEDDING_MODEL): the job worker embeds
 * the sections as content changes, a question is embedded when asked, and the ranking by meaning is fused with
 * full-text search's. The double's embedding model maps synonyms to one concept ("paycheck" and "salaries"), so a
 * question can share no word with the section that answers it. What reaches the prompt is checked on the prompt
 * the double received: the scope rules hold for the sections found by meaning too.
 */

describe('Ask with an embedding model', { timeout: 120_000 }, () => {
  let provider: AiProviderDouble;
  const env: Record<string, string> = { AI_CHAT_MODEL: 'double-chat', AI_EMBEDDING_MODEL: 'double-embed', AI_TIMEOUT_MS: '30000' };
  before(async () => {
    provider = await startAiProvider();
    env.AI_PROVIDER_URL = provider.url;
  });
  after(() => provider.close());
  const session = e2eSession({ env });

  let spaceA = '';
  let spaceB = '';
  let reportsPage = '';
  const PAYROLL_TEXT = 'Salaries are paid on the last Friday of the month through the payroll bank.';
  const prompts = (from: number) => provider.requests.slice(from).map((r) => JSON.stringify(r.messages));
  const embeddedTexts = (from = 0) => provider.embeddings.slice(from).flatMap((e) => e.input);
  const vectorRows = () => session.t.app.ctx.db.selectFrom('section_embeddings').select(['model', 'content_hash', 'dimensions']).execute();

  before(async () => {
    const api = session.client();
    const org = session.t.org.id;
    spaceA = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
    spaceB = (await api.orgs.createSpace(org, { title: 'Payroll' })).data.id;
    const handbook = await editLive(session.t, spaceA, [
      { operation: 'insert_page', title: 'Share links', document: markdown('Share links let anyone with the link read a private site.\n\n## Revoking\n\nDelete a share link to revoke its access at once.') },
      { operation: 'insert_page', title: 'Reports', document: markdown('Reports are exported every week as a spreadsheet.') },
    ]);
    reportsPage = handbook[1]!;
    await editLive(session.t, spaceB, [{ operation: 'insert_page', title: 'Salaries', document: markdown(PAYROLL_TEXT) }]);
  });

  test('the job worker embeds every section with the operator’s model, and only what changed afterwards', async () => {
    await session.t.app.jobs.runDue();
    assert.ok(provider.embeddings.length > 0, 'the sweep asked the provider');
    assert.ok(provider.embeddings.every((e) => e.model === 'double-embed' && e.encodingFormat === 'float'));
    const texts = embeddedTexts();
    assert.ok(texts.some((t) => t.startsWith('Share links › Revoking\nDelete a share link')), JSON.stringify(texts));
    assert.ok(texts.some((t) => t.includes(PAYROLL_TEXT)));
    assert.equal(new Set(texts).size, texts.length, 'no text embedded twice');
    const rows = await vectorRows();
    assert.ok(rows.length >= 4 && rows.every((r) => r.model === 'double-embed' && r.dimensions === 512), JSON.stringify(rows));

    // A page written again re-indexes its sections; only the text that changed is embedded.
    const before = provider.embeddings.length;
    await editLive(session.t, spaceA, [{ operation: 'update_page', page: reportsPage, document: markdown('Reports are exported every month as a spreadsheet.') }]);
    await session.t.app.jobs.runDue();
    assert.deepEqual(embeddedTexts(before), ['Reports\nReports are exported every month as a spreadsheet.']);
    // The old text's vector is of no use any more: it goes.
    assert.equal((await vectorRows()).length, rows.length);

    // A duplicated space shares its texts' vectors: nothing to embed.
    const copies = provider.embeddings.length;
    await session.client().spaces.duplicateSpace(spaceA);
    await session.t.app.jobs.runDue();
    assert.equal(provider.embeddings.length, copies);
  });

  test('a question in other words than the docs gets the section that answers it', async () => {
    await session.t.app.jobs.runDue();
    const from = provider.requests.length;
    await session.latest().orgs.askInOrganization(session.t.org.id, { query: 'When will my paycheck arrive?' });
    const sent = prompts(from);
    assert.equal(sent.length, 1, 'the model was asked: meaning found what words did not');
    assert.match(sent[0]!, /last Friday of the month/);
    assert.equal(provider.embeddings.at(-1)!.input[0], 'When will my paycheck arrive?');
  });

  test('a section near in meaning but outside what the asker reads never reaches their prompt', async () => {
    const guest = await session.t.member(null);
    await session.client().spaces.inviteToSpace(spaceA, { role: 'read' as never, users: [guest.userId] });
    const from = provider.requests.length;
    const { data } = await session.latest(guest.token).orgs.askInOrganization(session.t.org.id, { query: 'When will my paycheck arrive?' });
    assert.equal(data.answer!.sources.length, 0);
    for (const prompt of prompts(from)) assert.doesNotMatch(prompt, /Salaries|payroll bank|last Friday/);

    // A site publishing the Handbook only answers from it, whatever is nearest in the organization.
    const org = session.t.org.id;
    const { data: site } = await session.latest().orgs.createSite(org, { title: 'Help center' });
    await session.latest().orgs.addSpaceToSite(org, site.id, { spaceId: spaceA });
    const siteFrom = provider.requests.length;
    for await (const event of await session.latest().orgs.streamAskInSite(org, site.id, { question: 'When will my paycheck arrive?', scope: { mode: 'all' } })) void event;
    for (const prompt of prompts(siteFrom)) assert.doesNotMatch(prompt, /Salaries|payroll bank|last Friday/);
  });

  test('an embedding model that fails leaves the answer to full-text search, and the sweep to its next run', async () => {
    provider.embeddingBehaviour = { kind: 'fail', status: 503, message: 'embedding model loading' };
    const from = provider.requests.length;
    const { data } = await session.latest().orgs.askInOrganization(session.t.org.id, { query: 'How do I revoke a share link?' });
    assert.ok(data.answer!.sources.length > 0);
    assert.match(prompts(from)[0]!, /revoke its access at once/);

    const [added] = await editLive(session.t, spaceA, [{ operation: 'insert_page', title: 'Exports', document: markdown('Exports run at night.') }]);
    assert.ok(added);
    await session.t.app.jobs.runDue(); // the provider fails: nothing stored, nothing thrown
    assert.ok(!(await vectorRows()).some((r) => r.dimensions === 0));
    const stored = (await vectorRows()).length;
    provider.embeddingBehaviour = { kind: 'concepts' };
    await session.t.app.jobs.runDue();
    assert.equal((await vectorRows()).length, stored + 1);
  });

  test('a text the model refuses is set aside alone; the rest of its batch is embedded', async () => {
    provider.embeddingBehaviour = { kind: 'refuse', marker: 'UNEMBEDDABLE' };
    await editLive(session.t, spaceA, [
      { operation: 'insert_page', title: 'Odd page', document: markdown('UNEMBEDDABLE text the model refuses.') },
      { operation: 'insert_page', title: 'Fine page', document: markdown('Fine text about exports.') },
    ]);
    await session.t.app.jobs.runDue();
    const rows = await vectorRows();
    assert.equal(rows.filter((r) => r.dimensions === 0).length, 1, 'the refused text is recorded, not asked again');
    const asked = provider.embeddings.length;
    await session.t.app.jobs.runDue();
    assert.equal(provider.embeddings.length, asked, 'nothing left to embed');
    assert.ok(embeddedTexts().some((t) => t.startsWith('Fine page\n')));
    provider.embeddingBehaviour = { kind: 'concepts' };
  });
});

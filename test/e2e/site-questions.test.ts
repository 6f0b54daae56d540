import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startAiProvider, type AiProviderDouble } from '../ai-provider.ts';
import { editLive, markdown } from '../factories.ts';
import { e2eSession } from './e2e-session.ts';
import { rejectsWith } from './gitbook-client.ts';

/**
 * What readers asked a site (issue 45) through the newest official client: every answer of the published site's
 * Ask and of streamAskInSite is kept with its question, its sources, its thread and the reader's thumbs; the
 * eight listing operations filter and sort them; the site's agent settings give the instructions its answers
 * follow; agents leave feedback about its pages. Against a test double of an OpenAI-compatible provider.
 */

const OPERATIONS = [
  'listSiteQuestions',
  'getSiteQuestionById',
  'listSiteQuestionSources',
  'getSiteQuestionStats',
  'listSiteQuestionAnswers',
  'getSiteQuestionAnswerById',
  'getSiteQuestionAnswerThreadById',
  'listSiteQuestionAnswerSources',
  'getSiteAgentSettingsById',
  'updateSiteAgentSettingsById',
  'submitSiteAgentFeedback',
];

interface ReaderEvent {
  id: string;
  blocks: { kind: string; text: string }[];
  sources: { title: string; href: string }[];
  followUps: string[];
}

const paragraph = (text: string) => ({
  object: 'document' as const,
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

describe("What readers asked a site's Ask, through the official client", { timeout: 180_000 }, () => {
  let provider: AiProviderDouble;
  const env: Record<string, string> = { AI_CHAT_MODEL: 'double-chat', AI_TIMEOUT_MS: '30000' };
  before(async () => {
    provider = await startAiProvider();
    env.AI_PROVIDER_URL = provider.url;
  });
  after(() => provider.close());
  const session = e2eSession({ env });

  let siteId = '';
  let spaceId = '';
  let sharePage = '';
  before(async () => {
    const api = session.latest();
    const org = session.t.org.id;
    spaceId = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
    const pages = await editLive(session.t, spaceId, [
      { operation: 'insert_page', title: 'Share links', document: markdown('Share links let anyone with the link read a private site.\n\n## Revoking\n\nDelete a share link to revoke its access at once.') },
      { operation: 'insert_page', title: 'Custom domains', document: markdown('A custom domain serves the site at your own address. Add a CNAME record pointing to the server.') },
    ]);
    sharePage = pages[0]!;
    siteId = (await api.orgs.createSite(org, { title: 'Help center' })).data.id;
    await api.orgs.addSpaceToSite(org, siteId, { spaceId });
    const published = await fetch(`${session.endpoint}/v1/orgs/${org}/sites/${siteId}/publish`, { method: 'POST', headers: { authorization: `Bearer ${session.t.admin.token}` } });
    assert.equal(published.status, 200);
  });

  /** A reader's question in the published site: the events of its stream, the last the whole answer. */
  async function readerAsks(question: string, previous?: string): Promise<ReaderEvent[]> {
    const url = new URL(`${session.endpoint}/sites/${siteId}/~gitbook/ask`);
    url.searchParams.set('question', question);
    if (previous) url.searchParams.set('previous', previous);
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(response.status, 200, await response.clone().text());
    const text = await response.text();
    assert.match(text, /event: done/);
    return text
      .split('\n\n')
      .filter((block) => block.startsWith('data: ') || block.includes('\ndata: '))
      .filter((block) => !/^event: (done|error)/m.test(block))
      .map((block) => JSON.parse(block.replace(/^data: /m, '')) as ReaderEvent);
  }

  const rate = (answer: unknown, rating: unknown, contentType = 'application/json') =>
    fetch(`${session.endpoint}/sites/${siteId}/~gitbook/ask/feedback`, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify({ answer, rating }) });

  let first = '';
  let followUp = '';
  let uncovered = '';
  test("a reader's answers are kept with their question, thread and sources; the thumbs rate them", async () => {
    provider.behaviour = { kind: 'model' };
    assert.match(await (await fetch(`${session.endpoint}/sites/${siteId}/`)).text(), /data-ask-url/, 'the published site offers Ask');
    const asked = await readerAsks('How do I revoke a share link?');
    first = asked.at(-1)!.id;
    assert.ok(asked.every((e) => e.id === first), 'every event names the answer');
    assert.equal(asked.at(-1)!.sources[0]!.title, 'Share links');
    // The same question, written otherwise, is the same question.
    await readerAsks('  how do I revoke a share link  ');
    const next = await readerAsks('And who can read with a share link?', first);
    followUp = next.at(-1)!.id;
    assert.match(JSON.stringify(provider.requests.at(-1)!.messages), /Share links/);
    uncovered = (await readerAsks('zebra quokka marmalade')).at(-1)!.id;

    assert.equal((await rate(first, -1)).status, 204);
    assert.equal((await rate(followUp, 1)).status, 204);
    assert.equal((await rate(first, 5)).status, 400);
    assert.equal((await rate('nope', 1)).status, 404);
    assert.equal((await rate(first, 1, 'text/plain')).status, 415);
    const unknownPrevious = await fetch(`${session.endpoint}/sites/${siteId}/~gitbook/ask?question=hello%20there&previous=nope`);
    assert.equal(unknownPrevious.status, 400);
    assert.match(await unknownPrevious.text(), /previous/);
  });

  test('streamAskInSite is kept too, as asked through the API', async () => {
    const api = session.latest();
    for await (const event of await api.orgs.streamAskInSite(session.t.org.id, siteId, { question: 'How do I add a custom domain?', scope: { mode: 'all' } })) void event;
    const { data } = await api.orgs.listSiteQuestionAnswers(session.t.org.id, siteId, { channelType: ['api' as never] });
    assert.deepEqual(data.items.map((a) => a.input.raw), ['How do I add a custom domain?']);
    assert.equal(data.items[0]!.channel.type, 'api');
  });

  test('the questions, most asked first, with their stats and the pages their answers cited', async () => {
    const api = session.latest();
    const org = session.t.org.id;
    const { data: list } = await api.orgs.listSiteQuestions(org, siteId, { sort: 'stats.answers', order: 'desc' });
    assert.equal(list.count, 4);
    const top = list.items[0]!;
    assert.equal(top.question, 'How do I revoke a share link');
    assert.equal(top.type, 'how-to');
    assert.equal(top.stats.answers, 2);
    assert.deepEqual(top.stats.feedback, { positive: 0, negative: 1, unrated: 1 });
    assert.deepEqual(top.stats.answered, { yes: 2, partially: 0, no: 0 });
    assert.equal(top.stats.weeklyPulse.length, 13);
    assert.equal(top.stats.weeklyPulse.at(-1), 2);

    const { data: one } = await api.orgs.getSiteQuestionById(org, siteId, top.id);
    assert.equal(one.stats.answers, 2);
    const { data: sources } = await api.orgs.listSiteQuestionSources(org, siteId, top.id);
    assert.deepEqual(sources.items.map((s) => s.type === 'page' && [s.page, s.title, s.weight]), [[sharePage, 'Share links', 1]]);

    const { data: unanswered } = await api.orgs.listSiteQuestions(org, siteId, { answered: ['no' as never] });
    assert.deepEqual(unanswered.items.map((q) => q.question), ['zebra quokka marmalade']);
    const { data: worst } = await api.orgs.listSiteQuestions(org, siteId, { sort: 'stats.feedback', order: 'asc', limit: 1 });
    assert.equal(worst.items[0]!.question, 'How do I revoke a share link');
    assert.ok(worst.next, 'a next page');
    const { data: rest } = await api.orgs.listSiteQuestions(org, siteId, { sort: 'stats.feedback', order: 'asc', limit: 10, page: worst.next!.page });
    assert.equal(rest.items.length, 3);
    assert.ok(!rest.items.some((q) => q.id === worst.items[0]!.id));
    const { data: none } = await api.orgs.listSiteQuestions(org, siteId, { topic: ['anything'] });
    assert.equal(none.count, 0);

    const { data: stats } = await api.orgs.getSiteQuestionStats(org, siteId);
    assert.equal(stats.total, 4);
    assert.equal(stats.answers, 5);
    assert.deepEqual(stats.feedback, { positive: 1, negative: 1, unrated: 3 });
    assert.deepEqual(stats.channelTypes, { site: 4, api: 1 });
    assert.equal(stats.relevance['off-topic'], 1);
    const { data: later } = await api.orgs.getSiteQuestionStats(org, siteId, { from: new Date(Date.now() + 3600_000).toISOString() });
    assert.equal(later.answers, 0);
    await rejectsWith(api.orgs.getSiteQuestionStats(org, siteId, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }), 400, /from/);
  });

  test('an answer with what the reader read, its thread and its sources; answers filtered', async () => {
    const api = session.latest();
    const org = session.t.org.id;
    const { data: answer } = await api.orgs.getSiteQuestionAnswerById(org, siteId, followUp);
    assert.deepEqual(answer.thread, { id: first, previous: first });
    assert.deepEqual(answer.feedback, { rating: 1 });
    assert.equal(answer.helpfulness, 'high');
    assert.equal(answer.language, 'en');
    assert.equal(answer.response.role, 'assistant');
    assert.equal(answer.response.steps[0]!.content!.object, 'document');
    const { data: thread } = await api.orgs.getSiteQuestionAnswerThreadById(org, siteId, followUp);
    assert.deepEqual(thread.map((a) => a.id), [first, followUp]);
    const { data: cited } = await api.orgs.listSiteQuestionAnswerSources(org, siteId, first);
    assert.deepEqual(cited.items.map((s) => s.type === 'page' && s.page), [sharePage]);
    const { data: empty } = await api.orgs.listSiteQuestionAnswerSources(org, siteId, uncovered);
    assert.equal(empty.count, 0);

    const { data: low } = await api.orgs.listSiteQuestionAnswers(org, siteId, { helpfulness: 'low' as never });
    assert.deepEqual(new Set(low.items.map((a) => a.id)), new Set([first, uncovered]));
    const { data: inThread } = await api.orgs.listSiteQuestionAnswers(org, siteId, { thread: first });
    assert.deepEqual(new Set(inThread.items.map((a) => a.id)), new Set([first, followUp]));
    const { data: offTopic } = await api.orgs.listSiteQuestionAnswers(org, siteId, { relevance: ['off-topic' as never], answered: ['no' as never] });
    assert.deepEqual(offTopic.items.map((a) => a.id), [uncovered]);

    await rejectsWith(api.orgs.getSiteQuestionAnswerById(org, siteId, 'nope'), 404);
    await rejectsWith(api.orgs.getSiteQuestionById(org, siteId, 'nope'), 404);
    const outsider = await session.t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.listSiteQuestions(org, siteId), 404);
    await rejectsWith(session.latest(outsider.token).orgs.getSiteQuestionAnswerById(org, siteId, first), 404);
  });

  test("the site's agent settings: its custom instructions go into the prompt of its answers; what Quire does not run is refused", async () => {
    const api = session.latest();
    const org = session.t.org.id;
    const { data: defaults } = await api.orgs.getSiteAgentSettingsById(org, siteId);
    assert.deepEqual(defaults.scans, { topics: 'never' });
    assert.equal(defaults.editing.customInstructions.nodes.length, 0);
    const input = { scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: paragraph('Answer like a pirate, briefly.') } } as never as Parameters<ReturnType<typeof session.latest>['orgs']['updateSiteAgentSettingsById']>[2];
    const { data: updated } = await api.orgs.updateSiteAgentSettingsById(org, siteId, input);
    assert.equal(updated.updatedBy, session.t.admin.userId);
    assert.ok(updated.updatedAt);
    await readerAsks('How do I revoke a share link?');
    const system = provider.requests.at(-1)!.messages[0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content, /Answer like a pirate, briefly\./);

    await rejectsWith(api.orgs.updateSiteAgentSettingsById(org, siteId, { ...input, scans: { topics: 'auto' as never } }), 400, /scans\/topics/);
    await rejectsWith(api.orgs.updateSiteAgentSettingsById(org, siteId, { ...input, editing: { customInstructions: paragraph('x'.repeat(5000)) as never } }), 400, /customInstructions/);
    const writer = await session.t.member('edit');
    await rejectsWith(session.latest(writer.token).orgs.updateSiteAgentSettingsById(org, siteId, input), 403);
    const outsider = await session.t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.getSiteAgentSettingsById(org, siteId), 404);
  });

  test("an agent's feedback about a page is kept for the site's writers", async () => {
    const api = session.latest();
    const org = session.t.org.id;
    await api.orgs.submitSiteAgentFeedback(org, siteId, { feedback: 'The revoking section does not say whether readers are signed out.', url: `${session.endpoint}/sites/${siteId}/share-links`, spaceId, pageId: sharePage, source: 'mcp' as never });
    const listed = await fetch(`${session.endpoint}/v1/orgs/${org}/sites/${siteId}/agent-feedback`, { headers: { authorization: `Bearer ${session.t.admin.token}` } });
    const body = (await listed.json()) as { items: { feedback: string; pageId: string; source: string }[] };
    assert.deepEqual(body.items.map((f) => [f.feedback, f.pageId, f.source]), [['The revoking section does not say whether readers are signed out.', sharePage, 'mcp']]);
    await rejectsWith(api.orgs.submitSiteAgentFeedback(org, siteId, { feedback: 'x', url: 'https://example.com/', spaceId: 'elsewhere', pageId: sharePage }), 400, /spaceId/);
    await rejectsWith(api.orgs.submitSiteAgentFeedback(org, siteId, { feedback: '', url: 'https://example.com/', spaceId, pageId: sharePage }), 400, /feedback/);
    await rejectsWith(api.orgs.submitSiteAgentFeedback(org, siteId, { feedback: 'x', url: 'https://example.com/', spaceId, pageId: 'nope' }), 400, /pageId/);
  });

  test('every operation answered in the official shapes', () => session.assertConformed(OPERATIONS));
});

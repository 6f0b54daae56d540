import { generateNKeysBetween } from 'fractional-indexing';
import { performance } from 'node:perf_hooks';
import { markdownToDocument } from '../src/features/content/document/to-document.ts';
import { findRevision, lockBranch } from '../src/features/content/branch-store.ts';
import { commitToBranch } from '../src/features/content/commit-revision.ts';
import { putDocument } from '../src/features/content/document-store.ts';
import type { PageRecord } from '../src/features/content/pages.ts';
import { prepareOrganizationAnswer, wholeAnswer } from '../src/features/ask/service.ts';
import { embedPendingSections } from '../src/features/search/embeddings.ts';
import { updateSpace } from '../src/features/spaces/store.ts';
import { authenticateToken } from '../src/features/tokens/service.ts';
import { configuredAiProvider } from '../src/platform/ai-provider.ts';
import { newId } from '../src/platform/ids.ts';
import { startAiProvider } from '../test/ai-provider.ts';
import { corpusPages, urlRefs } from '../test/corpus/pages.ts';
import { backgroundHighlightingDone } from '../src/features/reader/background-highlighting.ts';
import { highlightedAhead } from '../src/features/reader/highlight-ahead.ts';
import { server } from './search.ts';

/**
 * Issue 45's Ask bench, on SQLite and on PostgreSQL (BENCH_PG_URL; skipped when it cannot be reached): a site's
 * worth of docs (200 pages of the GitBook corpus) in an organization, 30 questions a reader would ask, each
 * asked 5 times through the Ask service with the real OpenAI client against a provider double on localhost.
 * Measured: Quire's own time before the first byte goes to the provider (the question's access check,
 * retrieval and prompt, and the client's request), from the call to the moment the double receives the
 * request; goal p95 <= 50 ms.
 */

const PAGES = 200;
const ROUNDS = 5;
const QUESTIONS = [
  'How do I revoke a share link?', 'Can I use my own domain for the docs?', 'How do I sync only one folder of a monorepo?', 'Who can merge a change request?',
  'How do I set up Okta for visitors?', 'What happens when I cancel my plan?', 'How do I show different content to beta users?', 'Can I export the docs as PDF?',
  'How do I add a Mermaid diagram?', 'Where do I find my invoices?', 'How do I redirect an old URL?', 'How do I invite my team?', 'What roles can members have?',
  'How does the test it button work?', 'How do I write math formulas?', 'Can readers give feedback?', 'How do I reuse a block on several pages?',
  'How do I connect GitHub?', 'What are variables?', 'How do I make a page hidden?', 'How do I change the site theme?', 'Can I add an announcement banner?',
  'How does search work for readers?', 'How do I add an OpenAPI spec?', 'What is a collection?', 'How do I review changes?', 'How do I set up SSO with SAML?',
  'Can I use feature flags?', 'How do I add a custom subdirectory with Cloudflare?', 'What are the keyboard shortcuts?',
];

export interface AskBenchResult {
  database: string;
  /** Who asks: a member across the organization, or a visitor of the published site (its own Ask route). */
  asker: 'member' | 'site visitor';
  /** `full-text`, or `full-text + embeddings` (AI_EMBEDDING_MODEL set: the question's embedding is asked first). */
  retrieval: string;
  p50: number;
  p95: number;
  samples: number;
}

function quantile(values: number[], q: number): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function runOn(database: string, pgUrl: string | undefined, embeddings: boolean, asker: AskBenchResult['asker'] = 'member'): Promise<AskBenchResult> {
  const s = await server(pgUrl);
  const provider = await startAiProvider();
  try {
    const ctx = s.app.ctx;
    ctx.ai = configuredAiProvider({ ...ctx.config, aiProviderUrl: provider.url, aiChatModel: 'bench', aiEmbeddingModel: embeddings ? 'bench-embed' : undefined });
    const corpus = corpusPages().map((p) => ({ title: p.title, document: markdownToDocument(p.markdown, urlRefs) }));
    const space = await s.api<{ id: string }>('POST', `/orgs/${s.organizationId}/spaces`, { title: 'Ask bench' });
    const now = new Date().toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      const branch = (await lockBranch(trx, space.id))!;
      const head = (await findRevision(trx, branch.head_revision_id))!;
      const keys = generateNKeysBetween(null, null, PAGES);
      const records = new Map<string, PageRecord>();
      for (let n = 0; n < PAGES; n++) {
        const source = corpus[n % corpus.length]!;
        const id = newId();
        const title = source.title;
        records.set(id, { id, parentId: null, position: keys[n]!, kind: 'document', title, slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'page'}-${n}`, documentId: await putDocument(trx, source.document, now), attributes: {}, createdAt: now, updatedAt: now });
      }
      const revision = await commitToBranch(ctx, trx, branch, head, { pages: records, type: 'edits', createdBy: null });
      await updateSpace(trx, space.id, { revision_id: revision.id });
    });
    // Every section embedded before the first question, as the job worker would have done.
    if (embeddings) while ((await embedPendingSections(ctx)) > 0);
    const caller = (await authenticateToken(ctx, s.token))!;
    // A visitor asks through the published site's route: its views, the pages it shows them, each candidate page
    // checked against their (here, no) claims — the reader's whole path, over HTTP.
    let siteId = '';
    if (asker === 'site visitor') {
      siteId = (await s.api<{ id: string }>('POST', `/orgs/${s.organizationId}/sites`, { title: 'Ask bench site', visibility: 'public', spaces: [space.id] })).id;
      await s.api('POST', `/orgs/${s.organizationId}/sites/${siteId}/publish`);
      // Publishing queues its pages' code to be highlighted ahead of readers: a grammar's first compile holds the
      // process for up to some 300 ms, which is the publication's cost, not Ask's. Measured once it is done.
      await highlightedAhead(ctx);
      await backgroundHighlightingDone();
    }
    const ask = async (question: string): Promise<number> => {
      const asked = provider.requests.length;
      const started = performance.now();
      if (siteId) {
        const response = await s.app.inject({ method: 'GET', url: `/sites/${siteId}/~gitbook/ask?question=${encodeURIComponent(question)}`, headers: { accept: 'text/event-stream' } });
        if (response.statusCode !== 200) throw new Error(`the site's Ask answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      } else await wholeAnswer(await prepareOrganizationAnswer(ctx, caller, s.organizationId, question));
      const request = provider.requests[asked];
      if (!request) throw new Error(`"${question}" never reached the provider`);
      return request.receivedAt - started;
    };
    for (const question of QUESTIONS.slice(0, 5)) await ask(question);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) for (const question of QUESTIONS) times.push(await ask(question));
    return { database, asker, retrieval: embeddings ? 'full-text + embeddings' : 'full-text', p50: quantile(times, 0.5), p95: quantile(times, 0.95), samples: times.length };
  } finally {
    await provider.close();
    await s.close();
  }
}

export async function runAskBench(): Promise<AskBenchResult[]> {
  const results = [await runOn('SQLite', undefined, false), await runOn('SQLite', undefined, true), await runOn('SQLite', undefined, false, 'site visitor')];
  const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  try {
    results.push(await runOn('PostgreSQL', pgUrl, false));
    results.push(await runOn('PostgreSQL', pgUrl, true));
    results.push(await runOn('PostgreSQL', pgUrl, false, 'site visitor'));
  } catch (error) {
    console.log(`ask bench: PostgreSQL skipped (${(error as Error).message})`);
  }
  return results;
}

export const askIntro = [
  'Quire\'s own time before a question reaches the model: 200 pages of the GitBook docs in a space, 30 questions a',
  'reader would ask, 5 rounds, through the Ask service and the real OpenAI client to a provider double on',
  'localhost; from the call to the moment the double receives the request (access check, retrieval, prompt, request).',
  'With embeddings (AI_EMBEDDING_MODEL set, every section embedded beforehand by the sweep), the time includes the',
  "question's embedding, a round trip to the double (512 dimensions), and the comparison with the scope's vectors.",
  "A site visitor asks the same questions of a public site publishing that space, through the site's own Ask route",
  '(`~gitbook/ask`, in process): the site\'s views and the pages it shows the visitor, each candidate page checked',
  'against their claims, then the prompt. Measured once the publication\'s code has been highlighted ahead of',
  'readers, work the site\'s publication queues.',
].join('\n');

export function askTable(results: AskBenchResult[]): string {
  const lines = ['| database | asker | retrieval | questions | p50 (ms) | p95 (ms) | p95 <= 50 ms |', '| --- | --- | --- | ---: | ---: | ---: | :---: |'];
  for (const r of results) lines.push(`| ${r.database} | ${r.asker} | ${r.retrieval} | ${r.samples} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p95 <= 50 ? 'yes' : 'NO'} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(askTable(await runAskBench()));
}

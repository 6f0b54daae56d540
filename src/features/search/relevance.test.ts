import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildCorpusSpace } from '../../../test/factories.ts';
import { CORPUS_DIR } from '../../../test/corpus/pages.ts';

/**
 * Relevance on the real GitBook docs (~180 pages): for each query, the page a person looking for it expects
 * first. The same expectations hold on SQLite (FTS5, bm25) and PostgreSQL (tsvector, ts_rank_cd).
 */
// Where two pages are equally right (both titles name the word), either may come first.
const EXPECTED: [query: string, file: string | string[]][] = [
  ['change requests', 'collaborate/change-requests/README.md'],
  ['merge rules', 'collaborate/merge-rules.md'],
  ['custom domain', 'publish/custom-domain/README.md'],
  ['cloudflare subdirectory', 'publish/custom-domain/setting-a-custom-subdirectory/configuring-a-subdirectory-with-cloudflare.md'],
  ['vercel', 'publish/custom-domain/setting-a-custom-subdirectory/configuring-a-subdirectory-with-vercel.md'],
  ['okta', 'publish/site-audience/authenticated-access/setting-up-okta.md'],
  ['auth0', 'publish/site-audience/authenticated-access/setting-up-auth0.md'],
  ['azure ad', 'publish/site-audience/authenticated-access/setting-up-azure-ad.md'],
  ['cognito', 'publish/site-audience/authenticated-access/setting-up-aws-cognito.md'],
  ['share links', 'publish/site-audience/share-links.md'],
  // The overview's title, "GitHub & GitLab Sync", names both words too: either page is right.
  ['github sync', ['docs-as-code/git-sync/enabling-github-sync.md', 'docs-as-code/git-sync/README.md']],
  ['gitlab', ['docs-as-code/git-sync/README.md', 'docs-as-code/git-sync/enabling-gitlab-sync.md']],
  ['enabling gitlab', 'docs-as-code/git-sync/enabling-gitlab-sync.md'],
  ['monorepo', 'docs-as-code/git-sync/monorepos.md'],
  ['test it button', 'create-content/openapi/guides/configuring-the-test-it-button.md'],
  ['mermaid', 'create-content/blocks/mermaid-blocks.md'],
  ['math', 'create-content/blocks/math-and-tex.md'],
  ['keyboard shortcuts', 'reference/keyboard-shortcuts.md'],
  ['pdf export', 'publish/pdf-export.md'],
  ['redirects', 'publish/site-redirects.md'],
  ['sso saml', 'account-and-billing/sso-and-saml/README.md'],
  ['invoices', 'account-and-billing/billing-faq/payments-and-invoices.md'],
  ['free trial', 'account-and-billing/billing-faq/free-trial.md'],
  ['cancel subscription', 'account-and-billing/plans/cancelling-a-plan.md'],
  ['roles', 'collaborate/member-management/roles.md'],
  ['feature flags', 'publish/adaptive-content/enabling-adaptive-content/feature-flags.md'],
  ['cookies', 'publish/adaptive-content/enabling-adaptive-content/cookies.md'],
  ['variables and expressions', 'create-content/variables-and-expressions.md'],
  ['reusable content', 'create-content/reusable-content.md'],
  ['gitbook cli', 'docs-as-code/gitbook-cli.md'],
  ['quickstart', 'getting-started/quickstart.md'],
  ['expandable', 'create-content/blocks/expandable.md'],
  ['stepper', 'create-content/blocks/stepper.md'],
  ['seo', 'publish/seo.md'],
  ['live edits', 'collaborate/live-edits.md'],
  ['notificat', 'collaborate/notifications.md'],
  ['keyboard short', 'reference/keyboard-shortcuts.md'],
  ['Setting up OIDC', 'publish/site-audience/authenticated-access/setting-up-oidc.md'],
];

describe('search relevance on the GitBook docs', { skip: !existsSync(CORPUS_DIR) && 'corpus not present' }, () => {
  let t: TestServer;
  let spaceId: string;
  let fileOf = new Map<string, string>();
  before(async () => {
    t = await startServer();
    ({ spaceId, fileOf } = await buildCorpusSpace(t));
  });
  after(() => t.close());

  test(`${EXPECTED.length} queries find the page a person expects first`, async () => {
    const misses: string[] = [];
    for (const [query, file] of EXPECTED) {
      const body = ok(await t.api('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}&limit=5`));
      const top = body.items.map((p: { id: string }) => fileOf.get(p.id));
      if (!(Array.isArray(file) ? file : [file]).includes(top[0]!)) misses.push(`"${query}": expected ${String(file)}, got ${top.join(', ')}`);
    }
    assert.deepEqual(misses, []);
  });

  test('results carry highlighted sections with heading paths', async () => {
    const body = ok(await t.api('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent('okta')}`));
    const [first] = body.items;
    assert.ok(first.sections.length > 0);
    assert.ok(first.sections.some((s: { body: string }) => /<mark>okta<\/mark>/i.test(s.body)), JSON.stringify(first.sections));
  });
});

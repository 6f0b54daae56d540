import type { AppContext, Caller } from '../../platform/context.ts';
import { readPublishedContent } from '../content/service.ts';
import { loadSite, readTree } from '../sites/service.ts';
import { backfillSearchIndex } from './backfill.ts';

/** How long a prewarm may spend indexing the site's spaces still waiting for the backfill. */
const BACKFILL_BUDGET_MS = 2_000;

/**
 * prewarmSiteSearch: what a site's first search would otherwise pay for, paid now, when a visitor opens the search
 * (the spec's hint): each published space's page tree, which search reads to drop hidden pages and to give URLs,
 * is loaded into the revision cache, and any of the site's spaces the search backfill has not indexed yet
 * (backfill.ts) is indexed now, within a budget, so the first search finds its pages. Idempotent: a warm site
 * costs reads of cached trees. Whoever may search the site may warm it (searchSiteContent's rule, the spec's
 * `site:search` scope): it reveals nothing and changes nothing a search could not.
 */
export async function prewarmSiteSearch(ctx: AppContext, caller: Caller, organizationId: string, siteId: string): Promise<void> {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view', 'Warming the search of a site');
  const tree = await readTree(ctx.db, site);
  const spaces = new Map(tree.siteSpaces.map((ss) => [ss.space_id, ss.space.revision_id]));
  await backfillSearchIndex(ctx, { spaceIds: [...spaces.keys()], budgetMs: BACKFILL_BUDGET_MS });
  for (const revisionId of spaces.values()) await readPublishedContent(ctx, revisionId);
}

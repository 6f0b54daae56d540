import type { AppContext, Caller } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { applyTemplate } from '../content/main-branch-writes.ts';
import { createSpace } from '../spaces/service.ts';
import { loadSite, readTree } from './service.ts';
import { addSpaceToSite } from './site-spaces.ts';

/** The space template a new site starts from: the product documentation's page tree (content/templates.ts). */
export const SITE_TEMPLATE = 'product-docs';

/**
 * applyTemplateToSite: an empty site gets a space named after it, holding the product documentation template's
 * pages, as its one site-space: a ready-to-edit start. Everything that could refuse is checked before the first
 * write: the caller manages the site, may create spaces in the organization (createSpace checks that before it
 * writes), and the site holds nothing yet (a template over existing content would mix two structures: 409).
 */
export async function applyTemplateToSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string): Promise<void> {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Applying a template to a site');
  const tree = await readTree(ctx.db, site);
  if (tree.siteSpaces.length > 0 || tree.sections.length > 0) {
    throw conflict(`Site ${siteId} already has content (${tree.siteSpaces.length} site-spaces, ${tree.sections.length} sections): the template applies to an empty site`);
  }
  // A space's title has at most 50 characters; a site's may be longer.
  const space = await createSpace(ctx, caller, organizationId, { title: [...site.title].slice(0, 50).join('').trim() || 'Documentation' });
  await applyTemplate(ctx, caller, space.id, SITE_TEMPLATE);
  await addSpaceToSite(ctx, caller, organizationId, siteId, { spaceId: space.id });
}

import type { Static } from 'typebox';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { presentExternalLink, type SiteTree } from './present.ts';
import type { AddExternalLinkBody, UpdateExternalLinkBody } from './schemas.ts';
import { endOf } from './sections.ts';
import { loadSite, loadSiteForDelete, readTree, structureChanged } from './service.ts';
import { checkedCondition } from './site-spaces.ts';
import { deleteExternalLink, insertExternalLink, updateExternalLink, type ExternalLinkRow } from './store.ts';

/*
 * A site's external links (0.202.0): entries of a structure of sections that lead elsewhere, at its top level or
 * in a section group, shown beside the sections in the published site's navigation.
 */

/** An absolute HTTP(S) URL: a link of a site never runs script (`javascript:`) nor points into the visitor's machine. */
export function checkedUrl(url: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${field}: "${url}" is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`${field}: "${url}" must be an HTTP or HTTPS URL`);
  return parsed.toString();
}

function groupIn(tree: SiteTree, groupId: string, field: string): string {
  if (!tree.groups.some((g) => g.id === groupId)) throw badRequest(`${field}: no section group ${groupId} in this site`);
  return groupId;
}

const json = (value: Record<string, string> | null | undefined) => (value ? JSON.stringify(value) : null);

export async function addExternalLinkToSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof AddExternalLinkBody>) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Adding an external link');
  const tree = await readTree(ctx.db, site);
  if (tree.sections.length === 0) {
    throw badRequest('This site has a simple structure (its spaces without sections): an external link takes its place among sections; add a section first');
  }
  const groupId = body.parent === undefined ? null : groupIn(tree, body.parent, 'body/parent');
  const now = isoNow(ctx.clock);
  const row: ExternalLinkRow = {
    id: newId(),
    site_id: site.id,
    group_id: groupId,
    title: body.title,
    localized_title: json(body.localizedTitle),
    description: body.description ?? null,
    localized_description: json(body.localizedDescription),
    icon: body.icon ?? null,
    url: checkedUrl(body.url, 'body/url'),
    condition: checkedCondition(body.condition, 'body/condition') ?? null,
    draft: body.draft ? 1 : 0,
    position: endOf(tree, groupId),
    created_at: now,
    updated_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertExternalLink(trx, row);
    await structureChanged(trx, ctx, site, 'external_link_added', { siteExternalLinkId: row.id });
  });
  return presentExternalLink(row);
}

/** Changes the fields given; a new `parent` moves the link to the end of that group (null: of the top level). */
export async function updateSiteExternalLink(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  linkId: string,
  body: Static<typeof UpdateExternalLinkBody>,
) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating an external link');
  const tree = await readTree(ctx.db, site);
  const link = tree.links.find((l) => l.id === linkId);
  if (!link) throw notFound(`No external link ${linkId} in this site`);
  const changes: Partial<ExternalLinkRow> = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.localizedTitle !== undefined) changes.localized_title = json(body.localizedTitle);
  if (body.description !== undefined) changes.description = body.description;
  if (body.localizedDescription !== undefined) changes.localized_description = json(body.localizedDescription);
  if (body.icon !== undefined) changes.icon = body.icon;
  if (body.url !== undefined) changes.url = checkedUrl(body.url, 'body/url');
  if (body.condition !== undefined) changes.condition = checkedCondition(body.condition, 'body/condition') ?? null;
  if (body.draft !== undefined) changes.draft = body.draft ? 1 : 0;
  if (body.parent !== undefined) {
    const groupId = body.parent === null ? null : groupIn(tree, body.parent, 'body/parent');
    if (groupId !== link.group_id) {
      changes.group_id = groupId;
      changes.position = endOf(tree, groupId, link.id);
    }
  }
  changes.updated_at = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    await updateExternalLink(trx, link.id, changes);
    await structureChanged(trx, ctx, site, 'external_link_updated', { siteExternalLinkId: link.id, fields: Object.keys(body) });
  });
  return presentExternalLink({ ...link, ...changes });
}

/** Deletes an external link; answers whether there was one (205, else 204). What the caller cannot see is, for them, already gone. */
export async function deleteSiteExternalLink(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, linkId: string): Promise<boolean> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting an external link');
  if (!loaded) return false;
  return ctx.db.transaction().execute(async (trx) => {
    const deleted = await deleteExternalLink(trx, loaded.site.id, linkId);
    if (deleted) await structureChanged(trx, ctx, loaded.site, 'external_link_deleted', { siteExternalLinkId: linkId });
    return deleted;
  });
}

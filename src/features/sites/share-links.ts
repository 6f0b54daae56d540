import { randomBytes } from 'node:crypto';
import type { AppContext, Caller } from '../../platform/context.ts';
import type { Executor } from '../../db/types.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { presentShareLink } from './present.ts';
import { loadSite, loadSiteForDelete } from './service.ts';
import { countShareLinks, deleteShareLink, findShareLink, insertShareLink, listShareLinks, updateShareLink, type ShareLinkRow, type SiteRow } from './store.ts';

/**
 * Share links open a `share-link` site to whoever has the URL. The key is a secret (a capability, like a
 * file download URL): 32 random bytes, shown only to organization admins, in `urls.published`.
 */
export async function createShareLink(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, name: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Creating a share link');
  const row: ShareLinkRow = { id: newId(), site_id: site.id, name, share_key: randomBytes(24).toString('base64url'), active: 1, created_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await insertShareLink(trx, row);
    await recordEvent(trx, ctx.clock, 'site_share_link_created', organizationId, { siteId, shareLinkId: row.id });
    await auditShareLink(ctx, trx, caller, site, { shareLink: row.id, name, active: true });
  });
  return presentShareLink(ctx.config, site, row);
}

export async function listSiteShareLinks(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number }) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'viewShareLinks', 'Listing share links');
  const listKey = `share-links:${siteId}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listShareLinks(ctx.db, siteId, page), countShareLinks(ctx.db, siteId)]);
  return ctx.cursors.close(listKey, page, rows, count, (r) => [r.created_at, r.id], (r) => presentShareLink(ctx.config, site, r));
}

export async function updateSiteShareLink(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, shareLinkId: string, body: { active?: boolean | undefined; name?: string | undefined }) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a share link');
  const link = await findShareLink(ctx.db, siteId, shareLinkId);
  if (!link) throw notFound(`No share link ${shareLinkId} in site ${siteId}`);
  const changes: Partial<ShareLinkRow> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.active !== undefined) changes.active = body.active ? 1 : 0;
  await ctx.db.transaction().execute(async (trx) => {
    await updateShareLink(trx, link.id, changes);
    await recordEvent(trx, ctx.clock, 'site_share_link_updated', organizationId, { siteId, shareLinkId, fields: Object.keys(body) });
    // Renaming a link changes nobody's access; turning it on or off does.
    if (changes.active !== undefined && changes.active !== link.active) await auditShareLink(ctx, trx, caller, site, { shareLink: link.id, name: changes.name ?? link.name, active: changes.active === 1 });
  });
  return presentShareLink(ctx.config, site, { ...link, ...changes });
}

export async function deleteSiteShareLink(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting a share link');
  if (!loaded) return;
  const link = await findShareLink(ctx.db, siteId, shareLinkId);
  if (!link) return;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteShareLink(trx, link.id);
    await recordEvent(trx, ctx.clock, 'site_share_link_deleted', organizationId, { siteId, shareLinkId });
    await auditShareLink(ctx, trx, caller, loaded.site, { shareLink: link.id, name: link.name, deleted: true });
  });
}

/** A share link made, turned on or off, or deleted changes who may read the site: the audit log's "site sharing changed". */
async function auditShareLink(ctx: AppContext, db: Executor, caller: Caller, site: SiteRow, details: Record<string, unknown>) {
  await recordAudit(ctx, db, site.organization_id, caller, { action: 'site.sharing_changed', target: { type: 'site', id: site.id, label: site.title }, details });
}

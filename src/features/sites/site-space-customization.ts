import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, isNotFound, notFound } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { checkCustomization, type CustomizationValue } from './customization-schema.ts';
import { applyOverride, overrideOf, patchOverride, type CustomizationOverride } from './customization-override.ts';
import { resolveCustomizationFonts } from '../fonts/service.ts';
import { customizationOf, loadSite, readTree } from './service.ts';
import { updateSiteSpace, type SiteRow, type SiteSpaceRow } from './store.ts';

/** What a variant of the site shows: the site's customization with the variant's override over it. */
export function siteSpaceCustomizationOf(site: SiteRow, row: Pick<SiteSpaceRow, 'customization'>): CustomizationValue {
  return applyOverride(customizationOf(site), overrideOf(row));
}

async function loadSiteSpace(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string, action: 'view' | 'manage', what?: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, action, what);
  const row = (await readTree(ctx.db, site)).siteSpaces.find((ss) => ss.id === siteSpaceId);
  if (!row) throw notFound(`No site-space ${siteSpaceId} in site ${siteId}`);
  return { site, row };
}

export async function getSiteSpaceCustomization(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string) {
  const { site, row } = await loadSiteSpace(ctx, caller, organizationId, siteId, siteSpaceId, 'view');
  return siteSpaceCustomizationOf(site, row);
}

/**
 * Overrides fields of the site's customization for one variant (PATCH: the fields given, null taking an
 * override away). The customization the variant then shows must be a valid one (400 naming the field).
 */
export async function overrideSiteSpaceCustomization(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string, body: CustomizationOverride) {
  const { site, row } = await loadSiteSpace(ctx, caller, organizationId, siteId, siteSpaceId, 'manage', 'Customizing a site-space');
  const override = patchOverride(overrideOf(row), body);
  // A custom font is stored as it stands, with this server's files, as in the site's own customization.
  if (override.styling && typeof override.styling === 'object') override.styling = await resolveCustomizationFonts(ctx, site.organization_id, override.styling, 'body/styling');
  const shown = applyOverride(customizationOf(site), override);
  const checked = checkCustomization(shown, 'body');
  if (!checked.ok) throw badRequest(checked.message);
  await writeOverride(ctx, site, row, Object.keys(override).length > 0 ? override : null);
  return shown;
}

/** Takes the override away; answers whether there was one (the official 205, else 204). */
export async function deleteSiteSpaceCustomization(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
  let loaded;
  try {
    loaded = await loadSiteSpace(ctx, caller, organizationId, siteId, siteSpaceId, 'view');
  } catch (error) {
    // What the caller cannot see is, for them, already gone.
    if (isNotFound(error)) return false;
    throw error;
  }
  // Whoever sees the site may learn it has this site-space; removing its override is for its managers.
  await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Customizing a site-space');
  if (loaded.row.customization === null) return false;
  await writeOverride(ctx, loaded.site, loaded.row, null);
  return true;
}

async function writeOverride(ctx: AppContext, site: SiteRow, row: SiteSpaceRow, override: CustomizationOverride | null) {
  await ctx.db.transaction().execute(async (trx) => {
    await updateSiteSpace(trx, row.id, { customization: override ? JSON.stringify(override) : null });
    await recordEvent(trx, ctx.clock, 'site_customization_updated', site.organization_id, { siteId: site.id, siteSpaceId: row.id });
  });
}

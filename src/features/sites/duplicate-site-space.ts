import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { positionAfter } from '../placement/positions.ts';
import { loadSpaceToDuplicate, writeSpaceCopy } from '../spaces/service.ts';
import { level } from './sections.ts';
import { announceSpaceShown, loadSite, newSiteSpaceRow, presentTreeFor, readTree, structureChanged } from './service.ts';
import { inOrder, pathFromTitle, uniquePath } from './structure.ts';
import { insertSection, insertSiteSpace, type SectionRow, type SiteSpaceRow } from './store.ts';

/**
 * duplicateSiteSpace: a full copy of the space a site-space shows (duplicateSpace's copy: settings and current
 * content, next to the original in the organization), placed in the site where the original is: when the
 * site-space is the only variant of its section, as the variant of a new section right after that one (so the
 * copy does not become a second language or version of the original by accident); otherwise as a variant right
 * after the original in the same section (or at the site's root). The copy's site-space keeps the original's
 * customization, not its condition. One transaction: the space, its content and its place in the site, or none.
 * The caller manages the site and may duplicate the space (reads it, creates spaces where it is). Sections and
 * site-spaces of this server are always live: `draft: true` is refused rather than ignored.
 */
export async function duplicateSiteSpace(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string, body: { draft?: boolean | undefined }) {
  if (body.draft === true) throw badRequest('body/draft: sections and site-spaces of this server have no draft state; they are live once added');
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Duplicating a space of a site');
  const { site } = loaded;
  const tree = await readTree(ctx.db, site);
  const original = tree.siteSpaces.find((ss) => ss.id === siteSpaceId);
  if (!original) throw notFound(`No site-space ${siteSpaceId} in site ${siteId}`);
  const { space } = await loadSpaceToDuplicate(ctx, caller, original.space_id);
  const siblings = tree.siteSpaces.filter((ss) => ss.section_id === original.section_id);
  const section = original.section_id === null ? undefined : tree.sections.find((s) => s.id === original.section_id);

  const created = await ctx.db.transaction().execute(async (trx) => {
    const copy = await writeSpaceCopy(ctx, trx, caller, space);
    let row: SiteSpaceRow;
    if (section && siblings.length === 1) {
      const around = inOrder(level(tree, section.group_id));
      const title = `${section.title} (copy)`;
      const newSection: SectionRow = {
        ...section,
        id: newId(),
        title,
        path: uniquePath(pathFromTitle(title), tree.sections.map((s) => s.path)),
        condition: null,
        is_default: 0,
        position: positionAfter(around.map((item) => item.position), around.findIndex((item) => item.id === section.id)),
        created_at: isoNow(ctx.clock),
      };
      await insertSection(trx, newSection);
      row = { ...newSiteSpaceRow(ctx, site, newSection.id, copy, []), customization: original.customization };
    } else {
      const ordered = inOrder(siblings);
      row = {
        ...newSiteSpaceRow(ctx, site, original.section_id, copy, siblings),
        position: positionAfter(ordered.map((ss) => ss.position), ordered.findIndex((ss) => ss.id === original.id)),
        customization: original.customization,
      };
    }
    await insertSiteSpace(trx, row);
    await structureChanged(trx, ctx, site, 'site_space_duplicated', { siteSpaceId: row.id, duplicatedFrom: original.id, spaceId: copy.id });
    return { copy, row };
  });
  announceSpaceShown(ctx, site, created.copy);
  const presented = await presentTreeFor(ctx, loaded.access, await readTree(ctx.db, site));
  return presented.siteSpaces.get(created.row.id)!;
}

import type { AppContext } from '../../platform/context.ts';
import type { OrgAccess } from '../access/service.ts';
import type { SpaceRow } from '../spaces/queries.ts';
import { presentSpacesFor } from '../spaces/service.ts';
import { findOrganization } from '../organizations/queries.ts';
import { presentOrganization } from '../organizations/present.ts';
import { presentFile, presentPage, type PresentedPage } from '../content/present.ts';
import { fileDownloadUrl } from '../files/service.ts';
import type { Snapshot } from '../content/snapshot.ts';
import type { LinkItem } from './analysis.ts';

/**
 * ContentLocation objects (the spec's absolute references): every page or file location carries the
 * organization and the space, presented once per request, and the page or file as the revision holds it.
 */
export async function locationPresenter(ctx: AppContext, opened: { space: SpaceRow; access: OrgAccess; snapshot: Snapshot; spaceId: string }) {
  const { space, access, snapshot, spaceId } = opened;
  const org = await findOrganization(ctx.db, space.organization_id);
  if (!org) throw new Error(`space ${space.id} has no organization`);
  const organization = presentOrganization(ctx.config, org, access);
  const presentedSpace = (await presentSpacesFor(ctx, access, [space])).get(space.id)!;
  const pages = new Map<string, PresentedPage>();
  const files = new Map<string, ReturnType<typeof presentFile>>();

  const pageLocation = (id: string, anchor?: string) => {
    const page = pages.get(id);
    if (!page) throw new Error(`page ${id} was not loaded`);
    return {
      kind: 'page' as const,
      organization,
      space: presentedSpace,
      page,
      ...(anchor !== undefined ? { internalLocation: { type: 'anchor' as const, anchor } } : {}),
    };
  };

  return {
    /** Reads the pages and files a page of the list shows (each page: itself and its ancestry, for its path). */
    async load(pageIds: readonly string[], fileIds: readonly string[]) {
      for (const id of pageIds) {
        if (pages.has(id)) continue;
        const page = await snapshot.page(id);
        if (page) pages.set(id, presentPage(ctx.config, spaceId, { page, path: await snapshot.path(id), children: [] }));
      }
      for (const id of fileIds) {
        if (files.has(id)) continue;
        const file = await snapshot.file(id);
        if (file) files.set(id, presentFile(file, fileDownloadUrl(ctx.config, file.blob_hash, file.name)));
      }
    },
    page: (id: string) => pageLocation(id),
    /**
     * A link item. A broken internal target has nothing to present (the spec's page and file locations need the
     * object), so its item names no targetReference: its status and locations say where the broken link is.
     */
    usage(item: LinkItem) {
      const target = item.target;
      const file = target.kind === 'file' ? files.get(target.file) : undefined;
      const targetReference =
        target.kind === 'url'
          ? { kind: 'url' as const, url: target.url }
          : target.kind === 'page' && pages.has(target.page)
            ? pageLocation(target.page, target.anchor)
            : file
              ? { kind: 'file' as const, organization, space: presentedSpace, file }
              : undefined;
      return {
        status: item.status,
        relation: item.relation,
        ...(targetReference ? { targetReference } : {}),
        locationReferences: item.locations.filter((id) => pages.has(id)).map((id) => pageLocation(id)),
      };
    },
  };
}

import type { Revision } from '../../api/types.ts';
import type { AppLinks } from '../pages/links.ts';
import { indexPages, pagePath, type TreePage } from '../pages/page-tree.ts';

/** Where a diff's links lead: pages and files as a revision of the space has them (the current one, usually). */
export function revisionLinks(spaceId: string, revision: Revision | undefined): AppLinks {
  const index = indexPages(((revision?.pages ?? []) as unknown) as TreePage[]);
  const files = new Map(((revision as { files?: { id: string; name: string; downloadURL: string }[] } | undefined)?.files ?? []).map((f) => [f.id, f]));
  return {
    page: (pageId, otherSpace) => {
      if (otherSpace && otherSpace !== spaceId) return null;
      const target = index.byId.get(pageId);
      return target ? { href: `/app${pagePath(spaceId, target)}`, title: target.title } : null;
    },
    file: (fileId) => {
      const file = files.get(fileId);
      return file ? { href: file.downloadURL, name: file.name } : null;
    },
  };
}

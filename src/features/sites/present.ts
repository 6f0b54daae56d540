import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import { effectiveDefault, inOrder } from './structure.ts';
import type { ExternalLinkRow, GroupRow, SectionRow, ShareLinkRow, SiteRow, SiteSpaceWithSpace } from './store.ts';
import { sectionUrl, siteSpaceUrl, siteUrl, withShareKey } from './urls.ts';

export function presentSite(config: Config, row: SiteRow, siteSpaces: number) {
  const base = siteUrl(config, row);
  return {
    object: 'site' as const,
    id: row.id,
    type: row.type as 'basic',
    title: row.title,
    ...(row.hostname ? { hostname: row.hostname } : {}),
    ...(row.basename ? { basename: row.basename } : {}),
    ...(row.proxy_origin ? { proxy: { origin: row.proxy_origin, target: base } } : {}),
    visibility: row.visibility as 'public',
    published: row.published === 1,
    siteSpaces,
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_content === 1 },
    agentsContext: row.agents_context as 'included',
    // A self-hosted server has no plans: nothing is a premium feature to list.
    features: [],
    urls: {
      location: apiUrl(config, `/orgs/${row.organization_id}/sites/${row.id}`),
      app: appUrl(config, `/o/${row.organization_id}/sites/${row.id}`),
      ...(row.published === 1 ? { published: base } : {}),
    },
  };
}

export function presentShareLink(config: Config, site: SiteRow, row: ShareLinkRow) {
  return {
    object: 'share-link' as const,
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: row.active === 1,
    urls: { published: withShareKey(siteUrl(config, site), row.share_key) },
  };
}

/** A site's whole structure as read from the database. */
export interface SiteTree {
  site: SiteRow;
  sections: SectionRow[];
  groups: GroupRow[];
  /** External links, at the top level or in a group, among the sections and groups by position. */
  links: ExternalLinkRow[];
  siteSpaces: SiteSpaceWithSpace[];
}

/** The official SiteExternalLink of a row. */
export function presentExternalLink(row: ExternalLinkRow) {
  return {
    object: 'site-external-link' as const,
    id: row.id,
    title: row.title,
    ...(row.localized_title !== null ? { localizedTitle: JSON.parse(row.localized_title) as Record<string, string> } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.localized_description !== null ? { localizedDescription: JSON.parse(row.localized_description) as Record<string, string> } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    url: row.url,
    ...(row.group_id !== null ? { sectionGroup: row.group_id } : {}),
    draft: row.draft === 1,
    ...(row.condition !== null ? { condition: row.condition } : {}),
  };
}

/** The sections of a structure's top-level items, in reading order (a group's in its place; links have none). */
export function sectionsOf<T extends { object: string }>(items: readonly T[]): Extract<T, { object: 'site-section' }>[] {
  type Section = Extract<T, { object: 'site-section' }>;
  return items.flatMap((item) => (item.object === 'site-section' ? [item as Section] : item.object === 'site-section-group' ? (item as unknown as { sections: Section[] }).sections : []));
}

/**
 * The API objects of a site's structure, each with its published URL (only when the site is published, and
 * carrying the share key when one is given) and the effective defaults. `presentSpace` gives the embedded
 * Space object of a site-space, as the caller sees it.
 */
export function presentTree<S>(config: Config, tree: SiteTree, presentSpace: (row: SiteSpaceWithSpace) => S, shareKey?: string) {
  const base = siteUrl(config, tree.site);
  const published = (url: string) => (tree.site.published === 1 ? { published: withShareKey(url, shareKey) } : {});

  const bySection = new Map<string | null, SiteSpaceWithSpace[]>();
  for (const ss of tree.siteSpaces) {
    const list = bySection.get(ss.section_id) ?? [];
    list.push(ss);
    bySection.set(ss.section_id, list);
  }

  const topLevelSections = inOrder(tree.sections.filter((s) => s.group_id === null));
  const groups = inOrder(tree.groups);
  const top = inOrder<{ id: string; position: string; kind: 'section' | 'group' | 'link' }>([
    ...topLevelSections.map((s) => ({ id: s.id, position: s.position, kind: 'section' as const })),
    ...groups.map((g) => ({ id: g.id, position: g.position, kind: 'group' as const })),
    ...tree.links.filter((l) => l.group_id === null).map((l) => ({ id: l.id, position: l.position, kind: 'link' as const })),
  ]);
  const sectionsOfGroup = (groupId: string) => inOrder(tree.sections.filter((s) => s.group_id === groupId));
  // Sections in the order a reader meets them: the first one is the default unless one is marked.
  const flatSections = top.flatMap((item) => (item.kind === 'section' ? tree.sections.filter((s) => s.id === item.id) : item.kind === 'group' ? sectionsOfGroup(item.id) : []));
  const defaultSection = effectiveDefault(flatSections);

  const siteSpaceObjects = new Map<string, ReturnType<typeof siteSpaceObject>>();
  function siteSpaceObject(row: SiteSpaceWithSpace, isDefault: boolean, parentUrl: string) {
    return {
      object: 'site-space' as const,
      id: row.id,
      path: row.path,
      ...(row.section_id ? { section: row.section_id } : {}),
      space: presentSpace(row),
      title: row.space.title,
      default: isDefault,
      ...(row.condition !== null ? { condition: row.condition } : {}),
      draft: false,
      urls: published(siteSpaceUrl(parentUrl, { path: row.path, isDefault })),
    };
  }
  function siteSpacesUnder(sectionId: string | null, parentUrl: string) {
    const rows = inOrder(bySection.get(sectionId) ?? []);
    const defaultId = effectiveDefault(rows);
    return rows.map((row) => {
      const object = siteSpaceObject(row, row.id === defaultId, parentUrl);
      siteSpaceObjects.set(row.id, object);
      return object;
    });
  }

  const sectionObjects = new Map<string, ReturnType<typeof sectionObject>>();
  function sectionObject(row: SectionRow) {
    const isDefault = row.id === defaultSection;
    const url = sectionUrl(base, { path: row.path, isDefault });
    const object = {
      object: 'site-section' as const,
      id: row.id,
      title: row.title,
      ...(row.description !== null ? { description: row.description } : {}),
      default: isDefault,
      path: row.path,
      ...(row.condition !== null ? { condition: row.condition } : {}),
      ...(row.group_id ? { sectionGroup: row.group_id } : {}),
      ...(row.icon !== null ? { icon: row.icon } : {}),
      siteSpaces: siteSpacesUnder(row.id, url),
      urls: published(url),
    };
    sectionObjects.set(row.id, object);
    return object;
  }

  const groupObjects = new Map<string, ReturnType<typeof groupObject>>();
  function groupObject(row: GroupRow) {
    const sections = sectionsOfGroup(row.id).map(sectionObject);
    const links = tree.links.filter((l) => l.group_id === row.id);
    // Its sections and external links in their order.
    const children = inOrder<{ id: string; position: string }>([...sectionsOfGroup(row.id), ...links]).map(
      (item) => sections.find((s) => s.id === item.id) ?? presentExternalLink(links.find((l) => l.id === item.id)!),
    );
    const object = {
      object: 'site-section-group' as const,
      id: row.id,
      title: row.title,
      ...(row.icon !== null ? { icon: row.icon } : {}),
      sections,
      children,
    };
    groupObjects.set(row.id, object);
    return object;
  }

  const rootSiteSpaces = siteSpacesUnder(null, base);
  const items = top.map((item) =>
    item.kind === 'section'
      ? sectionObject(tree.sections.find((s) => s.id === item.id)!)
      : item.kind === 'group'
        ? groupObject(tree.groups.find((g) => g.id === item.id)!)
        : presentExternalLink(tree.links.find((l) => l.id === item.id)!),
  );
  const structure =
    tree.sections.length > 0 ? { type: 'sections' as const, structure: items } : { type: 'siteSpaces' as const, structure: rootSiteSpaces };
  return { structure, sections: sectionObjects, groups: groupObjects, siteSpaces: siteSpaceObjects, defaultSection };
}

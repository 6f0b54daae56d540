import type { SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from '@gitbook/api-latest';

export type StructureItem = SiteSpace | SiteSection | SiteSectionGroup;
export type PointerType = 'site-space' | 'site-section' | 'site-section-group';

/**
 * The sortSiteStructure body for a drop: `item` dropped on `over` in a list of sibling ids. Moving down puts it
 * after the item it was dropped on, moving up before it, as the list shows it while dragging. Undefined when
 * nothing moves (dropped on itself or outside the list).
 */
export function sortMove(ids: readonly string[], item: string, over: string | undefined, typeOf: (id: string) => PointerType) {
  if (!over || over === item) return undefined;
  const from = ids.indexOf(item);
  const to = ids.indexOf(over);
  if (from < 0 || to < 0) return undefined;
  const side = to > from ? 'after' : 'before';
  return { item: { type: typeOf(item), id: item }, position: { [side]: { type: typeOf(over), id: over } } };
}

/** The list after the move, shown at once while the server is asked (dnd-kit's arrayMove without the import). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

/** Every section of a structure, in order, those in groups included: what a redirect or a group can point at. */
export function sectionsOf(structure: SiteStructure): SiteSection[] {
  if (structure.type !== 'sections') return [];
  const out: SiteSection[] = [];
  const walk = (items: (SiteSection | SiteSectionGroup | SiteExternalLink)[]) => {
    for (const item of items) {
      if (item.object === 'site-section') out.push(item);
      // A group's `children` hold its external links too (0.202.0): they are no sections.
      else if (item.object === 'site-section-group') walk(item.children ?? item.sections);
    }
  };
  walk(structure.structure);
  return out;
}

// "No group" in the listbox, which holds no empty value.
export const NO_GROUP = 'none';

/** The choices of a section's or an external link's "Group": none when the site has no section group. */
export function groupChoices(structure: SiteStructure): { value: string; label: string }[] {
  const groups = structure.type === 'sections' ? structure.structure.filter((item) => item.object === 'site-section-group') : [];
  return groups.length === 0 ? [] : [{ value: NO_GROUP, label: 'No group' }, ...groups.map((group) => ({ value: group.id, label: group.title }))];
}

/** Every site-space (variant) of a structure with the section it is in, in order. */
export function siteSpacesOf(structure: SiteStructure): { siteSpace: SiteSpace; section?: SiteSection }[] {
  if (structure.type === 'siteSpaces') return structure.structure.map((siteSpace) => ({ siteSpace }));
  return sectionsOf(structure).flatMap((section) => section.siteSpaces.map((siteSpace) => ({ siteSpace, section })));
}

/** How a variant is named on the screens: its title, and its section's when it has one. */
export function variantLabel({ siteSpace, section }: { siteSpace: SiteSpace; section?: SiteSection }): string {
  return section ? `${section.title} › ${siteSpace.title}` : siteSpace.title;
}

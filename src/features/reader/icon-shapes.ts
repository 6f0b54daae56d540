/*
 * Named icons (a page's `icon`, an `icon` inline): GitBook names them after Font Awesome, so the names are
 * looked up in Font Awesome Free's solid and brands sets (CC BY 4.0 icons; the attribution is in the README).
 * The sets are 2,000 icons: they load on the first page that names one, and an unknown name draws nothing.
 * Only their shapes are here, so that the reader (Preact, icon-set.tsx) and the web app (React) draw the same.
 */

interface IconDefinition { iconName: string; icon: [number, number, (string | number)[], string, string | string[]] }

/** What `@fortawesome/free-solid-svg-icons` and `…/free-brands-svg-icons` export: their sets, `fas` and `fab`. */
export type IconSets = [{ fas: object }, { fab: object }];

/** An icon's box and the paths drawn in it, in currentColor. */
export interface IconShape { width: number; height: number; paths: readonly string[] }

let icons: Map<string, IconDefinition> | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the icon sets, once, by `importSets`: each side imports them its own way (the web app must keep the
 * whole sets out of the chunks that import a few of their icons by name).
 */
export function loadIcons(importSets: () => Promise<IconSets>): Promise<void> {
  loading ??= importSets().then(([{ fas }, { fab }]) => {
    const byName = iconsByName(Object.values(fas) as unknown as IconDefinition[]);
    // GitBook's default style is solid: where a name is in both sets (Font Awesome's own logo), the solid icon.
    for (const [name, definition] of iconsByName(Object.values(fab) as unknown as IconDefinition[])) if (!byName.has(name)) byName.set(name, definition);
    icons = byName;
  });
  return loading;
}

/** The icons' own names (no aliases), in alphabetical order: what an icon picker offers; none before loadIcons(). */
export function iconNames(): string[] {
  if (!icons) return [];
  names ??= [...new Set([...icons.values()].map((definition) => definition.iconName))].sort();
  return names;
}
let names: string[] | undefined;

/** Whether loadIcons() has finished: until then every name answers null. */
export const iconsLoaded = (): boolean => icons !== undefined;

/** A set's icons by name and alias; an icon's own name wins over another's alias of the same spelling. */
function iconsByName(definitions: readonly IconDefinition[]): Map<string, IconDefinition> {
  const map = new Map<string, IconDefinition>();
  for (const definition of definitions) for (const alias of definition.icon[2]) if (typeof alias === 'string' && !map.has(alias)) map.set(alias, definition);
  for (const definition of definitions) map.set(definition.iconName, definition);
  return map;
}

/** The shape of the icon of that name, or null (unknown name, or loadIcons() not awaited). */
export function iconShape(name: unknown): IconShape | null {
  if (typeof name !== 'string' || !icons) return null;
  const definition = icons.get(name.trim().toLowerCase());
  if (!definition) return null;
  const [width, height, , , path] = definition.icon;
  return { width, height, paths: Array.isArray(path) ? path : [path] };
}

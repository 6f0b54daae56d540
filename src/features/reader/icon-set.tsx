import type { VNode } from 'preact';

/*
 * Named icons (a page's `icon`, an `icon` inline): GitBook names them after Font Awesome, so the names are
 * looked up in Font Awesome Free's solid and brands sets (CC BY 4.0 icons; the attribution is in the README).
 * The sets are 2,000 icons: they load on the first page that names one, and an unknown name draws nothing.
 */

interface IconDefinition { iconName: string; icon: [number, number, (string | number)[], string, string | string[]] }

let icons: Map<string, IconDefinition> | undefined;
let loading: Promise<void> | undefined;

/** Loads the icon sets, once. */
export function loadIcons(): Promise<void> {
  loading ??= Promise.all([import('@fortawesome/free-solid-svg-icons'), import('@fortawesome/free-brands-svg-icons')]).then(([{ fas }, { fab }]) => {
    const byName = iconsByName(Object.values(fas) as unknown as IconDefinition[]);
    // GitBook's default style is solid: where a name is in both sets (Font Awesome's own logo), the solid icon.
    for (const [name, definition] of iconsByName(Object.values(fab) as unknown as IconDefinition[])) if (!byName.has(name)) byName.set(name, definition);
    icons = byName;
  });
  return loading;
}

/** A set's icons by name and alias; an icon's own name wins over another's alias of the same spelling. */
function iconsByName(definitions: readonly IconDefinition[]): Map<string, IconDefinition> {
  const map = new Map<string, IconDefinition>();
  for (const definition of definitions) for (const alias of definition.icon[2]) if (typeof alias === 'string' && !map.has(alias)) map.set(alias, definition);
  for (const definition of definitions) map.set(definition.iconName, definition);
  return map;
}

/** The icon as an inline, decorative SVG, or null (unknown name, or loadIcons() not awaited). */
export function namedIcon(name: unknown, className = 'named-icon'): VNode | null {
  if (typeof name !== 'string' || !icons) return null;
  const definition = icons.get(name.trim().toLowerCase());
  if (!definition) return null;
  const [width, height, , , path] = definition.icon;
  return (
    <svg class={className} viewBox={`0 0 ${width} ${height}`} fill="currentColor" aria-hidden="true" focusable="false">
      {(Array.isArray(path) ? path : [path]).map((d) => (
        <path d={d} />
      ))}
    </svg>
  );
}

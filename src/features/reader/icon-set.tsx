import type { VNode } from 'preact';

/*
 * Named icons (a page's `icon`, an `icon` inline): GitBook names them after Font Awesome, so the names are
 * looked up in Font Awesome Free's solid set (CC BY 4.0 icons; the attribution is in the README). The set
 * is 2,000 icons: it loads on the first page that names one, and an unknown name draws nothing.
 */

interface IconDefinition { iconName: string; icon: [number, number, (string | number)[], string, string | string[]] }

let icons: Map<string, IconDefinition> | undefined;
let loading: Promise<void> | undefined;

/** Loads the icon set, once. */
export function loadIcons(): Promise<void> {
  loading ??= import('@fortawesome/free-solid-svg-icons').then(({ fas }) => {
    const map = new Map<string, IconDefinition>();
    for (const definition of Object.values(fas) as unknown as IconDefinition[]) {
      map.set(definition.iconName, definition);
      for (const alias of definition.icon[2]) if (typeof alias === 'string') map.set(alias, definition);
    }
    icons = map;
  });
  return loading;
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

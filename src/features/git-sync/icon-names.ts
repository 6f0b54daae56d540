import { createRequire } from 'node:module';

/*
 * Icon shortcodes of Material for MkDocs (`:material-check:`, `:octicons-file-code-16:`,
 * `:fontawesome-regular-clock:`) as the icons Quire draws. A document's `icon` inline is named as GitBook names
 * icons, after Font Awesome, and the reader draws Font Awesome Free's solid set (reader/icon-set.tsx), so a
 * shortcode becomes an icon when that set has an icon (or an alias) of its name: Material's `close` is Font
 * Awesome's `xmark`, drawn in Font Awesome's design. Brand icons (`fontawesome-brands-*`, `simple-*`) are not in
 * the set, nor are most of Material's own names; those stay as written and the import names them.
 */

let names: Map<string, string> | undefined;

/** The icon names and aliases of the set the reader draws -> the icon's own name; read once, when an import first needs them. */
function iconNames(): Map<string, string> {
  if (!names) {
    const require = createRequire(import.meta.url);
    const { fas } = require('@fortawesome/free-solid-svg-icons') as { fas: Record<string, { iconName: string; icon: [number, number, unknown[], ...unknown[]] }> };
    names = new Map();
    for (const definition of Object.values(fas)) {
      for (const alias of definition.icon[2]) if (typeof alias === 'string' && !names.has(alias)) names.set(alias, definition.iconName);
    }
    // An icon's own name wins over another's alias of the same spelling.
    for (const definition of Object.values(fas)) names.set(definition.iconName, definition.iconName);
  }
  return names;
}

/** A shortcode's name without its colons: `material-close`, `octicons-heart-fill-24`, `fontawesome-solid-user`. */
export const ICON_SHORTCODE = /:((?:material|octicons|fontawesome-(?:solid|regular|brands)|simple)-[a-z0-9-]+):/g;

/** The icon a shortcode names in the reader's set, by its own name (`close` is `xmark`), or undefined. */
export function iconOfShortcode(shortcode: string): string | undefined {
  const [, set, rest] = /^(material|octicons|fontawesome-(?:solid|regular|brands)|simple)-(.+)$/.exec(shortcode) ?? [];
  if (!set || !rest || set === 'simple' || set === 'fontawesome-brands') return undefined;
  // Octicons come in sizes (`-16`, `-24`) and a filled variant; the set's icons are solid, of one design.
  const name = set === 'octicons' ? rest.replace(/-(?:12|16|24|48)$/, '').replace(/-fill$/, '') : rest;
  return iconNames().get(name);
}

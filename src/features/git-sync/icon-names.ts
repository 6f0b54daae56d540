import { createRequire } from 'node:module';

/*
 * Icon shortcodes of Material for MkDocs (`:material-check:`, `:octicons-file-code-16:`,
 * `:fontawesome-regular-clock:`) as the icons Quire draws. A document's `icon` inline is named as GitBook names
 * icons, after Font Awesome, and the reader draws Font Awesome Free's solid set (reader/icon-set.tsx), so a
 * shortcode becomes an icon when that set has an icon (or an alias) of its name: Material's `close` is Font
 * Awesome's `xmark`, drawn in Font Awesome's design, and Material's `magnify` its `magnifying-glass` (NEAREST).
 * Brand icons (`fontawesome-brands-*`, `simple-*`) are not in the set, nor are a few of Material's own names:
 * mkdocs-markdown.ts decides what becomes of those.
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

/**
 * Material Design and Octicons names whose icon Font Awesome has under another name: the same object or sign
 * (a magnifier, a bulb, a sun), not a look-alike of another meaning. Names that differ only by Material's
 * `-outline` and `-variant` or by where `circle` goes (`arrow-up-circle`, Font Awesome's `circle-arrow-up`)
 * are found without this table.
 */
const NEAREST: Record<string, string> = {
  'file-tree': 'folder-tree', connection: 'plug', newspaper: 'newspaper', 'newspaper-variant': 'newspaper', magnify: 'magnifying-glass',
  codescan: 'magnifying-glass', 'share-circle': 'share-nodes', 'tag-text': 'tag', 'shield-account': 'user-shield', 'alert-decagram': 'certificate',
  'repo-template': 'clone', 'format-font': 'font', 'check-all': 'check-double', 'run-fast': 'person-running', 'light-bulb': 'lightbulb',
  'lightbulb-on': 'lightbulb', 'lightbulb-on-20': 'lightbulb', goal: 'bullseye', 'comment-discussion': 'comments', 'file-document-remove': 'file-circle-minus',
  'account-question': 'circle-question', translate: 'language', 'source-pull': 'code-pull-request', smiley: 'face-smile', incognito: 'user-secret',
  'clock-fast': 'stopwatch', 'scale-balance': 'scale-balanced', 'record-circle': 'circle-dot', milestone: 'signs-post', 'brightness-7': 'sun',
  'brightness-4': 'moon', 'weather-sunny': 'sun', 'weather-night': 'moon', 'toggle-switch': 'toggle-on', 'toggle-switch-off': 'toggle-off',
  pound: 'hashtag', 'file-edit': 'file-pen', mail: 'envelope', 'file-document': 'file-lines', 'checkbox-blank-circle': 'circle', 'circle-medium': 'circle',
  'circle-small': 'circle', 'star-four-points-circle': 'star', 'arrow-collapse': 'down-left-and-up-right-to-center', information: 'circle-info',
  'emoticon-happy': 'face-smile', 'emoticon-sad': 'face-frown', 'thumb-up': 'thumbs-up', 'thumb-down': 'thumbs-down', package: 'box', repo: 'book',
  'dots-horizontal': 'ellipsis', 'chevron-double-right': 'angles-right', 'tag-plus': 'tag', 'comment-text': 'comment-dots', 'format-title': 'heading',
  'format-list-group': 'list',
};

/** A shortcode's name in its set, and the names Font Awesome may have for it, most exact first. */
function candidateNames(set: string, rest: string): string[] {
  // Octicons come in sizes (`-16`, `-24`) and a filled variant; the set's icons are solid, of one design.
  const name = set === 'octicons' ? rest.replace(/-(?:12|16|24|48)$/, '').replace(/-fill$/, '') : rest;
  if (set !== 'material' && set !== 'octicons') return [name];
  // Material draws most icons twice, filled and `-outline`; Font Awesome's solid set has the filled one.
  const plain = name.replace(/-outline$/, '').replace(/-variant$/, '');
  const circled = /^(.+)-circle$/.exec(plain);
  return [name, NEAREST[name], plain, NEAREST[plain], ...(circled ? [`circle-${circled[1]}`] : [])].filter((n): n is string => n !== undefined);
}

/**
 * The icon a shortcode names in the reader's set, by its own name (`close` is `xmark`) or the nearest Font
 * Awesome has (`magnify` is `magnifying-glass`), or undefined. `exact` tells which.
 */
export function iconOfShortcode(shortcode: string): string | undefined {
  return nearestIcon(shortcode)?.icon;
}

export function nearestIcon(shortcode: string): { icon: string; exact: boolean } | undefined {
  const [, set, rest] = /^(material|octicons|fontawesome-(?:solid|regular|brands)|simple)-(.+)$/.exec(shortcode) ?? [];
  if (!set || !rest || set === 'simple' || set === 'fontawesome-brands') return undefined;
  const candidates = candidateNames(set, rest);
  for (const [i, name] of candidates.entries()) {
    const icon = iconNames().get(name);
    if (icon) return { icon, exact: i === 0 };
  }
  return undefined;
}

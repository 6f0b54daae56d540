import { createRequire } from 'node:module';

/*
 * Icon shortcodes of Material for MkDocs (`:material-check:`, `:octicons-file-code-16:`,
 * `:fontawesome-regular-clock:`) as the icons Quire draws. A document's `icon` inline is named as GitBook names
 * icons, after Font Awesome, and the reader draws Font Awesome Free's solid and brands sets (reader/icon-set.tsx),
 * so a shortcode becomes an icon when those sets have an icon (or an alias) of its name: Material's `close` is Font
 * Awesome's `xmark`, drawn in Font Awesome's design, and Material's `magnify` its `magnifying-glass` (NEAREST).
 * Logos are in the brands set: `fontawesome-brands-github`, Simple Icons' `simple-github` (a slug Font Awesome
 * names alike, or but for its hyphens: SIMPLE_ICONS_NAMES), Material's `material-linux`, Octicons' `mark-github`
 * (OCTICONS_LOGOS). Names in neither (Material's
 * own logo, most of Simple Icons' brands): mkdocs-markdown.ts decides what becomes of those.
 */

interface IconDefinition { iconName: string; icon: [number, number, unknown[], ...unknown[]] }

interface IconSets {
  solid: Map<string, string>;
  brands: Map<string, string>;
  /** The brands' names written as Simple Icons writes slugs, without hyphens (`googleplay` for `google-play`). */
  brandsUnhyphenated: Map<string, string>;
}

let sets: IconSets | undefined;

/** The icon names and aliases of the sets the reader draws -> the icon's own name; read once, when an import first needs them. */
function iconSets(): IconSets {
  if (!sets) {
    const require = createRequire(import.meta.url);
    const { fas } = require('@fortawesome/free-solid-svg-icons') as { fas: Record<string, IconDefinition> };
    const { fab } = require('@fortawesome/free-brands-svg-icons') as { fab: Record<string, IconDefinition> };
    const brands = namesOf(Object.values(fab));
    const brandsUnhyphenated = new Map<string, string>();
    for (const [name, icon] of brands) if (!brandsUnhyphenated.has(name.replaceAll('-', ''))) brandsUnhyphenated.set(name.replaceAll('-', ''), icon);
    sets = { solid: namesOf(Object.values(fas)), brands, brandsUnhyphenated };
  }
  return sets;
}

function namesOf(definitions: readonly IconDefinition[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const definition of definitions) {
    for (const alias of definition.icon[2]) if (typeof alias === 'string' && !names.has(alias)) names.set(alias, definition.iconName);
  }
  // An icon's own name wins over another's alias of the same spelling.
  for (const definition of definitions) names.set(definition.iconName, definition.iconName);
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

/**
 * Octicons' logos, drawn from Font Awesome's brands set. Octicons' other names are objects and signs, which a
 * brand of the same name is not: its `node` is a graph's node, not Node.js's logo.
 */
const OCTICONS_LOGOS: Record<string, string> = { 'mark-github': 'github', markdown: 'markdown' };

/**
 * Simple Icons' slugs whose logo Font Awesome names otherwise, beyond hyphens: X's logo is `x-twitter` (the solid
 * `x` is a letter), and a slug writes `.` as `dot`.
 */
const SIMPLE_ICONS_NAMES: Record<string, string> = { x: 'x-twitter', nodedotjs: 'node-js', amazonaws: 'aws', amazonwebservices: 'aws', javascript: 'square-js', go: 'golang' };

/** A shortcode's name in its set, and the names Font Awesome may have for it, most exact first. */
function candidateNames(set: string, rest: string): string[] {
  // Octicons come in sizes (`-16`, `-24`) and a filled variant; the set's icons are solid, of one design.
  const name = set === 'octicons' ? rest.replace(/-(?:12|16|24|48)$/, '').replace(/-fill$/, '') : rest;
  if (set === 'simple') return [name, SIMPLE_ICONS_NAMES[name]].filter((n): n is string => n !== undefined);
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
  if (!set || !rest) return undefined;
  const { solid, brands, brandsUnhyphenated } = iconSets();
  const candidates = candidateNames(set, rest);
  // Simple Icons are all logos, which only the brands set has (the solid `x` is a letter, not X's logo).
  if (set === 'simple') return lookUp(brands, candidates) ?? lookUp(brandsUnhyphenated, [candidates[0]!]);
  if (set === 'fontawesome-brands') return lookUp(brands, candidates);
  if (set !== 'material' && set !== 'octicons') return lookUp(solid, candidates);
  // Material names brands' logos by the brand (`material-linux`). The solid set first: where a name is in
  // both, the reader draws the solid icon.
  return lookUp(solid, candidates) ?? (set === 'material' ? lookUp(brands, candidates) : octiconsLogo(candidates[0]!, brands));
}

function octiconsLogo(name: string, brands: ReadonlyMap<string, string>): { icon: string; exact: boolean } | undefined {
  const logo = OCTICONS_LOGOS[name];
  const icon = logo === undefined ? undefined : brands.get(logo);
  return icon === undefined ? undefined : { icon, exact: logo === name };
}

/** The first of the names the set has, and whether it is the first name asked for. */
function lookUp(names: ReadonlyMap<string, string>, candidates: readonly string[]): { icon: string; exact: boolean } | undefined {
  for (const [i, name] of candidates.entries()) {
    const icon = names.get(name);
    if (icon) return { icon, exact: i === 0 };
  }
  return undefined;
}

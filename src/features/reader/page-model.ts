import type { OutlineItem } from './heading-anchors.ts';
import type { RenderedHtml } from './render-document.tsx';

/*
 * What a reader page shows, as plain data the routes assemble: links already resolved to URLs, hidden pages
 * and pages, sections and variants whose adaptive `condition` does not match the visitor already removed.
 */

export interface ReaderLink { title: string; href: string }
export interface ThemedUrl { light: string; dark?: string }

export type NavItem =
  | { kind: 'page'; title: string; href: string; emoji?: string; icon?: string; current?: boolean; children?: NavItem[] }
  | { kind: 'group'; title: string; children: NavItem[] }
  | { kind: 'link'; title: string; href: string };

export interface ReaderPageModel {
  lang?: string;
  site: {
    title: string;
    logo?: ThemedUrl;
    /** `customization.favicon`: an image URL, or an emoji drawn as an SVG icon. */
    favicon?: { icon: ThemedUrl } | { emoji: string };
    /** The site's home URL (the logo links there). */
    href: string;
  };
  customization: {
    /** Colours as `#rgb`/`#rrggbb`; anything else is ignored (they end up in a style attribute). */
    primaryColor?: { light: string; dark: string };
    corners?: 'straight' | 'rounded' | 'circular';
    /** `themes.default` (absent: follow the visitor's system) and `themes.toggeable`. */
    theme?: { default?: 'light' | 'dark'; toggeable: boolean };
    externalLinks?: 'self' | 'blank';
    /** A custom font of the organization (`styling.font`): its faces, each a root-relative `/files/…` path of this server. */
    font?: { family: string; faces: { weight: number; path: string; format: 'woff2' | 'woff' }[] };
  };
  header: { links: (ReaderLink & { style?: 'link' | 'button-primary' | 'button-secondary' })[] };
  /** Site sections (tabs above the content) and the current section's variants (a switcher). */
  sections?: (ReaderLink & { current?: boolean; icon?: string; external?: boolean })[];
  variants?: (ReaderLink & { current?: boolean })[];
  tree: NavItem[];
  breadcrumbs: ReaderLink[];
  page: {
    title: string;
    description?: string;
    emoji?: string;
    /** A Font Awesome icon name, shown when there is no emoji. */
    icon?: string;
    cover?: { src: string; srcDark?: string; alt?: string };
    html: RenderedHtml;
    outline: OutlineItem[];
  };
  /** Set only when `customization.pagination.enabled`. */
  previous?: ReaderLink;
  next?: ReaderLink;
  announcement?: { message: string; style: 'info' | 'warning' | 'danger' | 'success'; link?: ReaderLink };
  footer?: { groups: { title: string; links: ReaderLink[] }[]; copyright?: string };
  seo: { canonical: string; noindex: boolean; image?: string };
  /** URL of the search JSON endpoint; no search button without it. */
  searchUrl?: string;
  /** URL of the site's Ask (visitor-ask.ts), when it answers questions: the search dialog then offers to ask. */
  askUrl?: string;
  /** PDF downloads of this page and of its variant's pages, when `customization.pdf.enabled`. */
  pdf?: { page: string; all: string };
}

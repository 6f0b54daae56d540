import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * How a URL becomes an embed (the official `Embed`): what a web page says of itself in its head (Open Graph,
 * its title, its icon, the oEmbed endpoint it advertises) and what that oEmbed endpoint answers. No HTTP here:
 * the service fetches, these functions read.
 */

export interface PageSummary {
  title?: string;
  site?: string;
  icon?: string;
  /** The page's oEmbed JSON endpoint, absolute. */
  oembed?: string;
}

/** An embed of the web (an installed integration's block is the service's third kind). */
export type WebEmbed = { type: 'link'; title: string; site: string; icon?: string } | { type: 'rich'; title: string; site: string; icon?: string; html: string };

const absolute = (href: string | undefined, base: string): string | undefined => {
  if (!href?.trim()) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

const clean = (text: string | undefined): string | undefined => {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? value.slice(0, 500) : undefined;
};

/** What a page's head says of it; the first of Open Graph, Twitter's card and the plain tags wins. */
export function summarizePage(html: string, pageUrl: string): PageSummary {
  const document = parseDocument(html, { decodeEntities: true });
  const meta = new Map<string, string>();
  for (const tag of DomUtils.getElementsByTagName('meta', document)) {
    const key = (tag.attribs.property ?? tag.attribs.name ?? '').toLowerCase();
    if (key && tag.attribs.content !== undefined && !meta.has(key)) meta.set(key, tag.attribs.content);
  }
  const links = DomUtils.getElementsByTagName('link', document);
  const rel = (tag: (typeof links)[number]) => (tag.attribs.rel ?? '').toLowerCase().split(/\s+/);
  const titleTag = DomUtils.getElementsByTagName('title', document)[0];
  const icon = links.find((tag) => rel(tag).includes('icon')) ?? links.find((tag) => rel(tag).includes('apple-touch-icon'));
  const oembed = links.find((tag) => rel(tag).includes('alternate') && (tag.attribs.type ?? '').toLowerCase() === 'application/json+oembed');
  const summary: PageSummary = {};
  const title = clean(meta.get('og:title') ?? meta.get('twitter:title') ?? (titleTag ? DomUtils.textContent(titleTag) : undefined));
  const site = clean(meta.get('og:site_name') ?? meta.get('application-name'));
  const iconUrl = absolute(icon?.attribs.href, pageUrl);
  const oembedUrl = absolute(oembed?.attribs.href, pageUrl);
  if (title) summary.title = title;
  if (site) summary.site = site;
  if (iconUrl) summary.icon = iconUrl;
  if (oembedUrl) summary.oembed = oembedUrl;
  return summary;
}

/** An oEmbed answer's fields this server uses, or undefined for what is not an oEmbed object. */
export function readOEmbed(json: unknown): { type: string; title?: string; provider?: string; html?: string } | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  if (typeof o.type !== 'string') return undefined;
  const read: { type: string; title?: string; provider?: string; html?: string } = { type: o.type };
  const title = clean(typeof o.title === 'string' ? o.title : undefined);
  const provider = clean(typeof o.provider_name === 'string' ? o.provider_name : undefined);
  if (title) read.title = title;
  if (provider) read.provider = provider;
  if (typeof o.html === 'string' && o.html.trim()) read.html = o.html;
  return read;
}

/**
 * The embed of `url`: rich when its oEmbed answer is a `rich` or `video` with HTML, a link otherwise. A page
 * that says nothing of itself is a link titled by its URL, on its host.
 */
export function embedOf(url: string, summary: PageSummary, oembed?: ReturnType<typeof readOEmbed>): WebEmbed {
  const title = oembed?.title ?? summary.title ?? url;
  const site = oembed?.provider ?? summary.site ?? new URL(url).hostname;
  const icon = summary.icon ? { icon: summary.icon } : {};
  if (oembed?.html && (oembed.type === 'rich' || oembed.type === 'video')) return { type: 'rich', title, site, ...icon, html: oembed.html };
  return { type: 'link', title, site, ...icon };
}

/**
 * Whether `url` is one of an integration block's `urlUnfurl` patterns: a URL where `*` stands for any run of
 * characters ("https://figma.com/*"); scheme and host are compared without case, as URLs are.
 */
export function matchesUnfurl(url: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(url);
}

import { documentToMarkdown } from '../content/document/to-markdown.ts';
import { ifExpression } from '../content/document/nodes.ts';
import type { ContentRef, Document } from '../content/document/types.ts';
import type { PageNode } from '../content/tree.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import type { LinkResolver } from './link-resolver.ts';
import { resolveLink } from './link-resolver.ts';
import type { Condition } from './site-view.ts';

/*
 * The site for machines: each page as markdown, `llms.txt` / `llms-full.txt` (https://llmstxt.org), the
 * sitemap and robots.txt. Pure text builders; service.ts and routes.ts gather what they list.
 */

/**
 * A document with its adaptive `if` blocks decided for one visitor: blocks whose condition holds give way to
 * their content, the others are dropped. The markdown writer knows no visitors, so this runs first and
 * content meant for others never reaches the text.
 */
export function decideConditions(document: Document, holds: Condition): Document {
  const walk = (nodes: unknown[]): unknown[] =>
    nodes.flatMap((node) => {
      if (!node || typeof node !== 'object') return [node];
      const block = node as { type?: string; data?: unknown; nodes?: unknown[] };
      if (block.type === 'if') {
        const condition = ifExpression(block.data);
        return condition !== '' && holds(condition) ? walk(block.nodes ?? []) : [];
      }
      return Array.isArray(block.nodes) ? [{ ...block, nodes: walk(block.nodes) }] : [node];
    });
  return { ...document, nodes: walk((document.nodes ?? []) as unknown[]) } as Document;
}

/** A page as markdown: its title, description and document, links written as published URLs. */
export function pageMarkdown(node: PageNode, document: Document | undefined, links: LinkResolver, holds: Condition, origin: string): string {
  const head = [`# ${node.page.title}`, ...(node.page.attributes.description ? [`> ${node.page.attributes.description}`] : [])].join('\n\n');
  if (!document) return `${head}\n`;
  const body = documentToMarkdown(decideConditions(document, holds), (ref: ContentRef) => {
    const link = resolveLink(ref, links);
    return link ? absolute(link.href, origin) : '';
  });
  return `${head}\n\n${body.trim()}\n`;
}

function absolute(href: string, origin: string): string {
  return href.startsWith('/') ? `${origin}${href}` : href;
}

export interface ListedPage { title: string; url: string; description?: string }
export interface ListedVariant { title: string; pages: ListedPage[] }

/** `llms.txt`: the site's title, then each section/variant's pages as links to their markdown. */
export function llmsTxt(title: string, description: string | undefined, variants: readonly ListedVariant[]): string {
  const lines = [`# ${title}`, ''];
  if (description) lines.push(`> ${description}`, '');
  for (const variant of variants) {
    lines.push(`## ${variant.title}`, '');
    for (const page of variant.pages) lines.push(`- [${page.title.replace(/[[\]]/g, '')}](${page.url}.md)${page.description ? `: ${page.description}` : ''}`);
    lines.push('');
  }
  return lines.join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** The sitemap of the given page URLs (absolute). */
export function sitemapXml(urls: readonly string[]): string {
  const entries = urls.map((url) => `  <url><loc>${escapeXml(url)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}${entries ? '\n' : ''}</urlset>\n`;
}

/**
 * robots.txt: a site that is not public keeps every robot out; a public one lets them in, except on pages
 * marked `noRobotsIndex`, and names its sitemap.
 */
export function robotsTxt(site: SiteRow, sitePath: string, disallowed: readonly string[], sitemapUrl: string): string {
  if (site.visibility !== 'public' || site.published !== 1) return `User-agent: *\nDisallow: ${sitePath}\n`;
  return ['User-agent: *', `Allow: ${sitePath}`, ...disallowed.map((path) => `Disallow: ${path}`), '', `Sitemap: ${sitemapUrl}`, ''].join('\n');
}

/** Whether a page goes into the sitemap: not hidden, not `noIndex`, not `noRobotsIndex`. */
export function indexable(node: PageNode): boolean {
  const a = node.page.attributes;
  return !a.hidden && !a.noIndex && !a.noRobotsIndex;
}

import type { ContentRef, ContentRefAnchor, ContentRefFile, ContentRefOther, ContentRefPage } from '../content/document/types.ts';
import { isExternalUrl, safeLinkUrl } from '../content/document/safe-url.ts';

/**
 * What the reader's routes know and the renderer does not: where a page, a file or an anchor of the site is
 * published. Each method answers null for a reference that does not resolve (a deleted page, a page the
 * visitor may not see); the renderer then shows the link's text without a link.
 */
export interface LinkResolver {
  page(ref: ContentRefPage): { href: string; title: string; emoji?: string } | null;
  file(ref: ContentRefFile): { href: string; name: string; contentType: string; size?: number } | null;
  /** An anchor without `page` is in the page being rendered: `#anchor` is a fine answer. */
  anchor(ref: ContentRefAnchor): { href: string; title?: string } | null;
  /** Spaces, collections, users, …: optional; unresolved when absent. */
  other?(ref: ContentRefOther): { href: string; title: string } | null;
}

export interface ResolvedLink { href: string; title: string | null; external: boolean }

/** A reference as a link a reader may follow, or null (unresolved, or a URL whose scheme could run script). */
export function resolveLink(ref: ContentRef | undefined, links: LinkResolver): ResolvedLink | null {
  if (!ref || typeof ref !== 'object') return null;
  let found: { href: string; title?: string | null } | null = null;
  switch (ref.kind) {
    case 'url': {
      const href = typeof ref.url === 'string' ? safeLinkUrl(ref.url) : null;
      return href ? { href, title: null, external: isExternalUrl(href) } : null;
    }
    case 'page':
      found = links.page(ref);
      break;
    case 'file': {
      const file = links.file(ref);
      found = file ? { href: file.href, title: file.name } : null;
      break;
    }
    case 'anchor':
      found = links.anchor(ref);
      break;
    default:
      found = links.other?.(ref as ContentRefOther) ?? null;
  }
  const href = found ? safeLinkUrl(found.href) : null;
  return href ? { href, title: found?.title ?? null, external: false } : null;
}

import type { ContentRef } from '../../../src/features/content/document/types.ts';
import { safeImageUrl, safeLinkUrl } from '../../../src/features/content/document/safe-url.ts';

/*
 * Where a document's references lead in the app: a page of the space to its app URL (by the page tree), a file
 * to its download URL (from the revision), a URL when it is safe to follow. Pure: the renderer gets one.
 */
export interface AppLinks {
  page(pageId: string, spaceId?: string): { href: string; title: string } | null;
  file(fileId: string): { href: string; name: string } | null;
}

export interface ResolvedLink {
  href: string;
  /** Another host: opened with rel=noopener. */
  external: boolean;
  /** Inside the app: followed by the router, without reloading. */
  internal: boolean;
  title?: string;
}

export function resolveRef(ref: ContentRef | undefined, links: AppLinks): ResolvedLink | null {
  if (!ref || typeof ref !== 'object') return null;
  switch (ref.kind) {
    case 'url': {
      const href = typeof ref.url === 'string' ? safeLinkUrl(ref.url) : null;
      return href ? { href, external: /^https?:\/\//i.test(href), internal: false } : null;
    }
    case 'page': {
      const page = typeof ref.page === 'string' ? links.page(ref.page, typeof ref.space === 'string' ? ref.space : undefined) : null;
      return page ? { href: page.href, external: false, internal: true, title: page.title } : null;
    }
    case 'anchor': {
      const anchor = typeof ref.anchor === 'string' ? encodeURIComponent(ref.anchor) : '';
      if (typeof ref.page !== 'string') return { href: `#${anchor}`, external: false, internal: false };
      const page = links.page(ref.page, typeof ref.space === 'string' ? ref.space : undefined);
      return page ? { href: `${page.href}#${anchor}`, external: false, internal: true, title: page.title } : null;
    }
    case 'file': {
      const file = typeof ref.file === 'string' ? links.file(ref.file) : null;
      return file ? { href: file.href, external: false, internal: false, title: file.name } : null;
    }
    default:
      return null;
  }
}

export function imageSource(ref: ContentRef | undefined, links: AppLinks): string | null {
  if (!ref || typeof ref !== 'object') return null;
  if (ref.kind === 'url') return typeof ref.url === 'string' ? safeImageUrl(ref.url) : null;
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const file = links.file(ref.file);
    return file ? safeImageUrl(file.href) : null;
  }
  return null;
}

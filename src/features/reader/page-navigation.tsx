import type { VNode } from 'preact';
import { ICONS } from './icons.tsx';
import type { NavItem, ReaderLink, ReaderPageModel } from './page-model.ts';
import { Link, PageIcon } from './page-chrome.tsx';
import { safeLinkUrl } from '../content/document/safe-url.ts';

/* The ways around a site: variants, the page tree, breadcrumbs, previous and next. */

/** A disclosure of links rather than a <select>: it works without script and each variant is a real URL. */
export function Variants({ variants }: { variants: NonNullable<ReaderPageModel['variants']> }): VNode {
  const current = variants.find((v) => v.current) ?? variants[0]!;
  return (
    <details class="variants">
      <summary>
        <span class="sr-only">Variant: </span>
        {current.title}
      </summary>
      <ul>
        {variants.map((variant) => (
          <li>
            <Link link={variant} current={variant.current} />
          </li>
        ))}
      </ul>
    </details>
  );
}

// The tree is bounded like documents are: deeper levels are not shown.
const MAX_TREE_DEPTH = 12;

export function containsCurrent(item: NavItem): boolean {
  if (item.kind === 'link') return false;
  if (item.kind === 'page' && item.current) return true;
  return (item.children ?? []).some(containsCurrent);
}

export function Tree({ items, depth }: { items: NavItem[]; depth: number }): VNode {
  return (
    <ul class={depth === 0 ? 'tree' : 'tree-children'}>
      {items.map((item) => {
        if (item.kind === 'group') {
          return (
            <li class="tree-group">
              <p class="tree-group-title">{item.title}</p>
              {depth < MAX_TREE_DEPTH ? <Tree items={item.children} depth={depth + 1} /> : null}
            </li>
          );
        }
        const label = (
          <>
            {item.kind === 'page' ? <PageIcon emoji={item.emoji} icon={item.icon} className="tree-emoji" /> : null}
            {item.title}
            {item.kind === 'link' ? <span class="tree-external">{ICONS.external}</span> : null}
          </>
        );
        const href = safeLinkUrl(item.href);
        const current = item.kind === 'page' && item.current === true;
        const link = href ? (
          <a href={href} class={current ? 'tree-link current' : 'tree-link'} aria-current={current ? 'page' : undefined}>
            {label}
          </a>
        ) : (
          <span class="tree-link">{label}</span>
        );
        const children = item.kind === 'page' ? (item.children ?? []) : [];
        if (children.length === 0 || depth >= MAX_TREE_DEPTH) return <li>{link}</li>;
        return (
          <li class="tree-parent">
            {link}
            <details open={containsCurrent(item)}>
              <summary aria-label={`Pages in ${item.title}`}>{ICONS.chevronRight}</summary>
              <Tree items={children} depth={depth + 1} />
            </details>
          </li>
        );
      })}
    </ul>
  );
}

export function Breadcrumbs({ links }: { links: ReaderLink[] }): VNode {
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {links.map((link) => (
          <li>
            <Link link={link} />
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Pagination({ previous, next }: { previous?: ReaderLink; next?: ReaderLink }): VNode {
  const card = (link: ReaderLink, direction: 'previous' | 'next') => {
    const href = safeLinkUrl(link.href);
    return href ? (
      <a class={`pagination-link ${direction}`} href={href} rel={direction === 'previous' ? 'prev' : 'next'}>
        <span class="pagination-direction">{direction === 'previous' ? 'Previous' : 'Next'}</span>
        <span class="pagination-title">{link.title}</span>
      </a>
    ) : null;
  };
  return (
    <nav class="pagination" aria-label="Previous and next pages">
      {previous ? card(previous, 'previous') : <span />}
      {next ? card(next, 'next') : null}
    </nav>
  );
}

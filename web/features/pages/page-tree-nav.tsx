import { useQueryClient } from '@tanstack/react-query';
import { memo } from 'react';
import { Link } from 'react-router';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { pageQuery } from '../../api/queries.ts';
import { faChevronRight } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '../../ui/icon.tsx';
import { pagePath, type TreePage } from './page-tree.ts';

/**
 * A space's page tree, like the reader's sidebar: documents link to their page, groups title their pages, the
 * branch of the open page is expanded. A page's document is fetched when its link is pointed at or focused,
 * so opening it is immediate.
 */
export const PageTreeNav = memo(function PageTreeNav({ spaceId, pages, currentId, openIds }: { spaceId: string; pages: TreePage[]; currentId?: string; openIds: ReadonlySet<string> }) {
  const queryClient = useQueryClient();
  const prefetch = (pageId: string) => void queryClient.prefetchQuery(pageQuery(spaceId, pageId));
  const renderPages = (list: TreePage[]) =>
    list.map((page) => {
      const children = page.pages ?? [];
      const emoji = emojiCharacter(page.emoji);
      const label = (
        <>
          {emoji ? <span className="tree-emoji" aria-hidden="true">{emoji}</span> : null}
          {page.title}
        </>
      );
      const link =
        page.type === 'document' || page.type === 'computed' ? (
          <Link to={pagePath(spaceId, page)} className={page.id === currentId ? 'tree-link current' : 'tree-link'} aria-current={page.id === currentId ? 'page' : undefined} onMouseEnter={() => prefetch(page.id)} onFocus={() => prefetch(page.id)}>
            {label}
          </Link>
        ) : page.type === 'group' ? (
          <p className="tree-group-title">{label}</p>
        ) : (
          <span className="tree-link">{label}</span>
        );
      if (children.length === 0) return <li key={page.id}>{link}</li>;
      return (
        <li key={page.id} className={page.type === 'group' ? 'tree-group' : 'tree-parent'}>
          {link}
          {page.type === 'group' || openIds.has(page.id) ? (
            <ul className={page.type === 'group' ? 'tree' : 'tree-children'}>{renderPages(children)}</ul>
          ) : (
            <details>
              <summary aria-label={`Pages under ${page.title}`}><Icon icon={faChevronRight} /></summary>
              <ul className="tree-children">{renderPages(children)}</ul>
            </details>
          )}
        </li>
      );
    });
  return (
    <nav className="page-tree" aria-label="Pages">
      <ul className="tree">{renderPages(pages)}</ul>
    </nav>
  );
});

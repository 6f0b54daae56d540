import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import type { Document } from '../../../src/features/content/document/types.ts';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { headingAnchors, outline } from '../../../src/features/reader/heading-anchors.ts';
import { pageQuery } from '../../api/queries.ts';
import type { Revision } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import type { AppLinks } from './links.ts';
import { ancestorsOf, pagePath, type PageIndex, type TreePage } from './page-tree.ts';
import { DocumentView } from './render-document.tsx';
import { VariablesContext } from './variables.ts';
import { buttonClass } from '../../ui/button.tsx';
import { prefetchEditing, prefetchEditingWhenIdle, warmUpEditingWhenIdle } from '../editing/prefetch.ts';

/** One page of a space, read-only (with an Edit button for those who may edit it): breadcrumbs, title, the document as the reader shows it, and its outline. */
export function PageView({ spaceId, page, index, revision, canEdit = false }: { spaceId: string; page: TreePage; index: PageIndex; revision: Revision; canEdit?: boolean }) {
  const query = useQuery(pageQuery(spaceId, page.id));
  useTitle(page.title);
  const location = useLocation();
  const links = useMemo(() => appLinks(spaceId, index, revision), [spaceId, index, revision]);
  const variables = useMemo(() => ({ space: revision.variables, page: page.variables }), [revision.variables, page.variables]);
  const document = (query.data as { document?: Document } | undefined)?.document;
  const items = useMemo(() => (document ? outline(document, headingAnchors(document)) : []), [document]);
  const ancestors = ancestorsOf(index, page.id);
  const emoji = emojiCharacter(page.emoji);

  // The editor's code is loaded before the click on Edit, for those who may edit (features/editing/prefetch.ts).
  useEffect(() => (canEdit ? prefetchEditingWhenIdle() : undefined), [canEdit]);
  // And, the page shown, its editor warmed up: built once off the page, its document converted (editor/warm-up.ts).
  useEffect(() => (canEdit && document ? warmUpEditingWhenIdle(document, spaceId) : undefined), [canEdit, document, spaceId]);

  // A shared URL with #anchor scrolls there once the document is shown.
  useEffect(() => {
    if (document && location.hash) window.document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [document, location.hash]);

  return (
    <>
      <article className="page" aria-labelledby="page-title">
        {ancestors.length > 0 ? (
          <nav className="breadcrumbs" aria-label="Breadcrumbs">
            <ol>
              {ancestors.map((a) => (
                <li key={a.id}>{a.type === 'document' ? <Link to={pagePath(spaceId, a)}>{a.title}</Link> : a.title}</li>
              ))}
            </ol>
          </nav>
        ) : null}
        <header className="page-header">
          {canEdit ? (
            <Link to={`/s/${spaceId}/~/edit/${page.id}`} className={buttonClass('secondary', 'md', 'edit-page')} onPointerEnter={prefetchEditing} onFocus={prefetchEditing} aria-label={`Edit “${page.title}”`}>
              Edit
            </Link>
          ) : null}
          <h1 id="page-title">
            {emoji ? <span className="page-emoji" aria-hidden="true">{emoji}</span> : null}
            {page.title}
          </h1>
          {query.data && 'description' in query.data && query.data.description ? <p className="page-description">{query.data.description}</p> : null}
        </header>
        {query.isPending ? <Skeleton lines={8} label="Loading the page" /> : null}
        <ErrorNote error={query.error} />
        {document ? (
          <VariablesContext.Provider value={variables}>
            <DocumentView document={document} links={links} />
          </VariablesContext.Provider>
        ) : null}
      </article>
      <aside className="outline" aria-label="On this page">
        {items.length > 0 ? (
          <>
            <p className="outline-title">On this page</p>
            <ul>
              {items.map((item) => (
                <li key={item.id} className={`outline-level-${item.level}`}>
                  <a href={`#${item.id}`}>{item.title}</a>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </aside>
    </>
  );
}

function appLinks(spaceId: string, index: PageIndex, revision: Revision): AppLinks {
  const files = new Map(((revision as { files?: { id: string; name: string; downloadURL: string }[] }).files ?? []).map((f) => [f.id, f]));
  return {
    page: (pageId, otherSpace) => {
      if (otherSpace && otherSpace !== spaceId) return null;
      const target = index.byId.get(pageId);
      return target ? { href: `/app${pagePath(spaceId, target)}`, title: target.title } : null;
    },
    file: (fileId) => {
      const file = files.get(fileId);
      return file ? { href: file.downloadURL, name: file.name } : null;
    },
  };
}

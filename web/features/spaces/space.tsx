import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { revisionQuery, spaceQuery } from '../../api/queries.ts';
import { rememberSpace } from '../home/recent-spaces.ts';
import { ancestorsOf, indexPages, pageAtPath, type TreePage } from '../pages/page-tree.ts';
import { PageTreeNav } from '../pages/page-tree-nav.tsx';
import { PageView } from '../pages/page-view.tsx';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { SpaceHeader } from './space-header.tsx';
import { ShareButton } from '../sharing/share-dialog.tsx';
import { shareTargetOf } from '../sharing/share-target.ts';

/** A space: its page tree and the page its URL names (the first page when none), read-only. */
export default function SpaceScreen() {
  const { spaceId = '', '*': path = '' } = useParams();
  const space = useQuery(spaceQuery(spaceId));
  const revision = useQuery(revisionQuery(spaceId));
  useTitle(space.data?.title);
  const index = useMemo(() => (revision.data ? indexPages(revision.data.pages as TreePage[]) : undefined), [revision.data]);
  const page = index ? pageAtPath(index, path) : undefined;
  const openIds = useMemo(() => new Set(page && index ? [...ancestorsOf(index, page.id).map((p) => p.id), page.id] : []), [page, index]);

  useEffect(() => {
    if (space.data) rememberSpace({ id: space.data.id, title: space.data.title, emoji: space.data.emoji, organization: space.data.organization });
  }, [space.data]);

  const failure = space.error ?? revision.error;
  if (failure && isNotFound(failure)) return <main id="main" className="app-main"><NotFound what="space" /></main>;
  return (
    <main id="main" className="app-main space-screen">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      {space.data?.permissions.admin ? <ShareButton target={shareTargetOf('space', space.data)} /> : null}
      <ErrorNote error={failure} />
      <div className="space-body">
        {index && revision.data ? (
          <>
            <PageTreeNav spaceId={spaceId} pages={revision.data.pages as TreePage[]} currentId={page?.id} openIds={openIds} />
            {page ? (
              <PageView key={page.id} spaceId={spaceId} page={page} index={index} revision={revision.data} canEdit={Boolean(space.data?.permissions?.edit)} />
            ) : index.order.length === 0 ? (
              <div className="page"><h1>{space.data?.title ?? 'This space'}</h1><p>This space has no pages yet.</p></div>
            ) : (
              <div className="page"><NotFound what="page in this space" /><p><Link to={`/s/${spaceId}/`}>Open the space’s first page</Link></p></div>
            )}
          </>
        ) : (
          <>
            <div className="page-tree"><Skeleton lines={10} label="Loading the pages" /></div>
            <div className="page"><Skeleton lines={8} label="Loading the page" /></div>
          </>
        )}
      </div>
    </main>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, revisionQuery, spaceQuery } from '../../api/queries.ts';
import type { ChangeRequest } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { revisionDocumentQuery, reviewApi } from '../change-requests/review-api.ts';
import { documentPages, revisionByIdQuery } from '../history/history-api.ts';
import { DocumentView } from '../pages/render-document.tsx';
import { revisionVariables, VariablesContext } from '../pages/variables.ts';
import { revisionLinks } from '../review/revision-links.ts';
import { SpaceHeader } from './space-header.tsx';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';

/**
 * A revision of a space: when it was made and what kind, any of its pages as it was then, and "Restore this page",
 * which gives the page that content again in a new revision (a change request with a revert_page change, merged
 * at once; when the space's merge rules refuse that, the change request is opened for review instead).
 */
export default function RevisionScreen() {
  const { spaceId = '', revisionId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const space = useQuery(spaceQuery(spaceId));
  const revision = useQuery(revisionByIdQuery(spaceId, revisionId));
  const current = useQuery(revisionQuery(spaceId));
  const pages = useMemo(() => documentPages(revision.data), [revision.data]);
  const pageId = params.get('page') ?? '';
  const page = pages.find((p) => p.id === pageId);
  useTitle(page ? `${page.title} (revision)` : 'Revision');
  if (isNotFound(revision.error)) return <main id="main" className="app-main"><NotFound what="revision" /></main>;
  const mayEdit = !!(space.data as { permissions?: { edit?: boolean } } | undefined)?.permissions?.edit;
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      <h1>Revision</h1>
      {revision.isPending ? <Skeleton lines={3} /> : null}
      <ErrorNote error={revision.error} />
      {revision.data ? (
        <>
          <dl className="facts">
            <dt>Made</dt><dd>{new Date(revision.data.createdAt).toLocaleString()}</dd>
            <dt>Kind</dt><dd>{revision.data.type}</dd>
            <dt>Id</dt><dd><code>{revision.data.id}</code></dd>
            <dt>Current</dt><dd>{current.data?.id === revision.data.id ? 'This is the space’s current content' : 'An earlier revision'}</dd>
          </dl>
          <Select
            label="Page as it was"
            placeholder="Choose a page…"
            options={pages.map((p) => ({ value: p.id, label: p.title }))}
            value={pageId || undefined}
            onValueChange={(page) => setParams({ page })}
          />
          {page ? <PageAsItWas spaceId={spaceId} revisionId={revisionId} pageId={page.id} title={page.title} mayRestore={mayEdit && current.data?.id !== revisionId} /> : null}
        </>
      ) : null}
      <p>
        <Link to={`/s/${spaceId}/~/history`}>The space’s history</Link>
      </p>
    </main>
  );
}

function PageAsItWas({ spaceId, revisionId, pageId, title, mayRestore }: { spaceId: string; revisionId: string; pageId: string; title: string; mayRestore: boolean }) {
  const document = useQuery(revisionDocumentQuery(spaceId, revisionId, pageId));
  const current = useQuery(revisionQuery(spaceId));
  const links = useMemo(() => revisionLinks(spaceId, current.data), [spaceId, current.data]);
  const asItWas = useQuery(revisionByIdQuery(spaceId, revisionId));
  const variables = useMemo(() => revisionVariables(asItWas.data, pageId), [asItWas.data, pageId]);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const restore = useMutation({
    mutationFn: async () => {
      const cr = await api<ChangeRequest>('POST', `/spaces/${spaceId}/change-requests`, { body: { subject: `Restore “${title}”`.slice(0, 100) } });
      const number = String(cr.number);
      await reviewApi.writeContent(spaceId, number, [{ operation: 'revert_page', page: pageId, revision: revisionId }]);
      try {
        const merged = await reviewApi.merge(spaceId, number);
        return { number, merged: merged.result === 'merge' };
      } catch {
        // Refused (merge rules, permission): the restoration waits in its change request for a review.
        return { number, merged: false };
      }
    },
    onSuccess: async ({ number, merged }) => {
      await queryClient.invalidateQueries({ queryKey: ['space', spaceId] });
      await queryClient.invalidateQueries({ queryKey: keys.space(spaceId) });
      if (!merged) navigate(`/s/${spaceId}/~/changes/${number}?page=${encodeURIComponent(pageId)}`);
    },
  });
  return (
    <article className="page" aria-label={`${title} as it was`}>
      <div className="inline-form">
        <h2>{title}</h2>
        {mayRestore ? (
          <Button disabled={restore.isPending} onClick={() => restore.mutate()}>
            Restore this page
          </Button>
        ) : null}
      </div>
      {restore.data?.merged ? <p className="banner banner-info" role="status">Restored: the page has this content again in the space’s current revision.</p> : null}
      <ErrorNote error={restore.error} />
      {document.isPending ? <Skeleton lines={6} label="Loading the page" /> : null}
      <ErrorNote error={document.error} />
      {document.data === null ? <p>The page has no content in this revision.</p> : null}
      {document.data ? (
        <VariablesContext.Provider value={variables}>
          <DocumentView document={document.data} links={links} />
        </VariablesContext.Provider>
      ) : null}
    </article>
  );
}

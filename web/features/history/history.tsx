import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { revisionQuery, spaceQuery, userQuery } from '../../api/queries.ts';
import type { Revision } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { revisionDocumentQuery } from '../change-requests/review-api.ts';
import { PageDiff } from '../review/page-diff.tsx';
import { revisionVariables } from '../pages/variables.ts';
import { revisionLinks } from '../review/revision-links.ts';
import { SpaceHeader } from '../spaces/space-header.tsx';
import { documentPages, revisionByIdQuery, useHistory } from './history-api.ts';
import '../review/review.css';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { Badge } from '../../ui/badge.tsx';

const KINDS: Record<string, string> = { merge: 'Merged change request', update: 'Updated from main', edits: 'Edited', initial: 'Created' };

/**
 * A space's history: its revisions newest first, each opening the space as it was, and any two of them compared
 * page by page (the choice is in the URL: ?from=&to=&page=).
 */
export default function HistoryScreen() {
  const { spaceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const space = useQuery(spaceQuery(spaceId));
  const history = useHistory(spaceId);
  // The current tree resolves a diff's links: loaded with the screen, so a diff is drawn once, not again when it comes.
  useQuery(revisionQuery(spaceId));
  useTitle(space.data ? `History · ${space.data.title}` : 'History');
  const revisions = useMemo(() => history.data?.pages.flatMap((p) => p.revisions) ?? [], [history.data]);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (isNotFound(space.error) || isNotFound(history.error)) return <main id="main" className="app-main"><NotFound what="space" /></main>;
  const choose = (name: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete('page');
    setParams(next);
  };
  const label = (id: string) => {
    const r = revisions.find((x) => x.id === id);
    return r ? `${new Date(r.createdAt).toLocaleString()} — ${KINDS[r.type] ?? r.type}` : id;
  };
  const revisionOptions = revisions.map((r) => ({ value: r.id, label: label(r.id) }));
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      <h1>History</h1>
      {history.isPending ? <Skeleton lines={5} label="Loading the history" /> : null}
      <ErrorNote error={history.error} />
      {revisions.length > 0 ? (
        <>
          <form className="inline-form" aria-label="Compare two revisions" onSubmit={(e) => e.preventDefault()}>
            <Select label="Compare from" placeholder="Choose a revision…" value={from} onValueChange={(id) => choose('from', id)} options={revisionOptions} />
            <Select label="to" placeholder="Choose a revision…" value={to} onValueChange={(id) => choose('to', id)} options={revisionOptions} />
          </form>
          {from && to ? <Comparison spaceId={spaceId} from={from} to={to} pageId={params.get('page') ?? ''} onPage={(page) => setParams({ from, to, page })} /> : null}
          <h2>Revisions</h2>
          <ul className="row-list">
            {revisions.map((r) => (
              <li key={r.id}>
                <Link to={`/s/${spaceId}/~/revisions/${r.id}`}>{new Date(r.createdAt).toLocaleString()}</Link>
                <Badge>{KINDS[r.type] ?? r.type}</Badge>
                <MergedFrom spaceId={spaceId} revision={r} />
                <Author revision={r} />
                {r.parents[0] ? (
                  <Link to={`?from=${r.parents[0]}&to=${r.id}`} aria-label={`What changed on ${new Date(r.createdAt).toLocaleString()}`}>
                    What changed
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
          {history.hasNextPage ? (
            <Button disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
              Load older revisions
            </Button>
          ) : null}
        </>
      ) : null}
    </main>
  );
}

function Comparison({ spaceId, from, to, pageId, onPage }: { spaceId: string; from: string; to: string; pageId: string; onPage: (pageId: string) => void }) {
  const queryClient = useQueryClient();
  // Both documents are asked for as the page is chosen, not once the screen has rendered the new URL.
  const choosePage = (id: string) => {
    if (id) for (const revision of [from, to]) void queryClient.prefetchQuery(revisionDocumentQuery(spaceId, revision, id));
    onPage(id);
  };
  const older = useQuery(revisionByIdQuery(spaceId, from));
  const newer = useQuery(revisionByIdQuery(spaceId, to));
  const pages = useMemo(() => {
    const seen = new Map(documentPages(newer.data).map((p) => [p.id, p]));
    for (const p of documentPages(older.data)) if (!seen.has(p.id)) seen.set(p.id, p);
    return [...seen.values()];
  }, [older.data, newer.data]);
  return (
    <section aria-labelledby="comparison-title">
      <h2 id="comparison-title">Comparison</h2>
      <ErrorNote error={older.error ?? newer.error} />
      {older.isPending || newer.isPending ? <Skeleton lines={2} label="Loading the revisions" /> : null}
      {pages.length > 0 ? (
        <Select label="Page" placeholder="Choose a page…" value={pageId} onValueChange={choosePage} options={pages.map((p) => ({ value: p.id, label: p.title }))} />
      ) : null}
      {pageId ? <RevisionDiff spaceId={spaceId} from={from} to={to} pageId={pageId} /> : null}
    </section>
  );
}

/** One page compared between two revisions of the space. */
export function RevisionDiff({ spaceId, from, to, pageId }: { spaceId: string; from: string; to: string; pageId: string }) {
  const before = useQuery(revisionDocumentQuery(spaceId, from, pageId));
  const after = useQuery(revisionDocumentQuery(spaceId, to, pageId));
  const current = useQuery(revisionQuery(spaceId));
  const links = useMemo(() => revisionLinks(spaceId, current.data), [spaceId, current.data]);
  const older = useQuery(revisionByIdQuery(spaceId, from));
  const newer = useQuery(revisionByIdQuery(spaceId, to));
  const variables = useMemo(() => ({ before: revisionVariables(older.data, pageId), after: revisionVariables(newer.data, pageId) }), [older.data, newer.data, pageId]);
  if (before.isPending || after.isPending) return <Skeleton lines={6} label="Loading the diff" />;
  return (
    <div className="page-review" aria-label="Changes to the page">
      <ErrorNote error={before.error ?? after.error} />
      {before.data !== undefined && after.data !== undefined ? <PageDiff before={before.data} after={after.data} links={links} variables={variables} /> : null}
    </div>
  );
}

/** Who made the revision (Quire's `authorId`): the editor of live edits, whoever merged a change request. */
function Author({ revision }: { revision: Revision }) {
  const authorId = (revision as { authorId?: string }).authorId;
  const user = useQuery({ ...userQuery(authorId ?? ''), enabled: authorId !== undefined });
  if (!user.data) return null;
  return <span className="muted">{revision.type === 'merge' ? `merged by ${user.data.displayName}` : `by ${user.data.displayName}`}</span>;
}

/** A merge's change request: its number, subject and who opened it (the revision's `mergedFrom`). */
function MergedFrom({ spaceId, revision }: { spaceId: string; revision: Revision }) {
  const cr = 'mergedFrom' in revision ? (revision.mergedFrom as { id: string; number: number; subject?: string; createdBy?: { displayName?: string } } | undefined) : undefined;
  if (!cr) return null;
  return (
    <span className="muted">
      <Link to={`/s/${spaceId}/~/changes/${cr.number}`}>#{cr.number}{cr.subject ? ` ${cr.subject}` : ''}</Link>
      {cr.createdBy?.displayName ? `, opened by ${cr.createdBy.displayName}` : ''}
    </span>
  );
}

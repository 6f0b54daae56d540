import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { FlowBlock } from '../../../src/features/content/document/types.ts';
import { blockText } from '../../../src/features/content/document/text.ts';
import type { ChangeRequest } from '../../api/types.ts';
import { revisionQuery } from '../../api/queries.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { blockName } from '../review/block-diff.ts';
import { PageDiff } from '../review/page-diff.tsx';
import { revisionVariables } from '../pages/variables.ts';
import { revisionByIdQuery } from '../history/history-api.ts';
import { revisionLinks } from '../review/revision-links.ts';
import { changeRequestComments, pageThreadsQuery, type Thread } from './comment-place.ts';
import { revisionDocumentQuery } from './review-api.ts';
import { CommentThread, NewComment, OutdatedThreads } from './threads.tsx';
import { Button } from '../../ui/button.tsx';
import { buttonClass } from '../../ui/button.tsx';

/*
 * One changed page of a change request: its diff against the revision the change request is based on, with the
 * comment threads beside the blocks they name (`target.node`), and those whose block is gone listed as outdated.
 */

/** `editPath`: where the page is edited in this change request, with whoever else edits it (absent: not for this person). */
export function PageReview(props: { spaceId: string; cr: ChangeRequest; pageId: string; title: string; userId: string; mayComment: boolean; editPath?: string | undefined }) {
  const { spaceId, cr, pageId, title, userId, mayComment, editPath } = props;
  const number = String(cr.number);
  const baseRevision = cr.revisionMergedAncestor ?? cr.revisionInitial;
  const before = useQuery(revisionDocumentQuery(spaceId, baseRevision, pageId));
  const after = useQuery(revisionDocumentQuery(spaceId, cr.revision, pageId));
  const current = useQuery(revisionQuery(spaceId));
  const place = useMemo(() => changeRequestComments(spaceId, number), [spaceId, number]);
  const threads = useQuery(pageThreadsQuery(place, pageId));
  const [sideBySide, setSideBySide] = useState(false);
  const links = useMemo(() => revisionLinks(spaceId, current.data), [spaceId, current.data]);
  const baseTree = useQuery(revisionByIdQuery(spaceId, baseRevision));
  const crTree = useQuery(revisionByIdQuery(spaceId, cr.revision));
  const variables = useMemo(() => ({ before: revisionVariables(baseTree.data, pageId), after: revisionVariables(crTree.data, pageId) }), [baseTree.data, crTree.data, pageId]);

  const byNode = useMemo(() => {
    const map = new Map<string, Thread[]>();
    for (const thread of threads.data?.items ?? []) {
      const node = thread.target.node?.id ?? '';
      map.set(node, [...(map.get(node) ?? []), thread]);
    }
    return map;
  }, [threads.data]);
  const keysNow = useMemo(() => new Set((after.data?.nodes ?? []).map((b) => b.key).filter(Boolean)), [after.data]);
  const outdated = [...byNode.entries()].filter(([node]) => node !== '' && !keysNow.has(node)).flatMap(([, list]) => list);
  const onPage = byNode.get('') ?? [];

  return (
    <section className="page-review" aria-labelledby="page-review-title">
      <div className="inline-form">
        <h2 id="page-review-title">Changes to “{title}”</h2>
        <Button aria-pressed={sideBySide} onClick={() => setSideBySide(!sideBySide)}>
          Side by side
        </Button>
        {editPath ? (
          <Link className={buttonClass()} to={editPath}>
            Edit this page together
          </Link>
        ) : null}
      </div>
      {before.isPending || after.isPending ? <Skeleton lines={6} label="Loading the diff" /> : null}
      <ErrorNote error={before.error ?? after.error} />
      <ErrorNote error={threads.error} />
      {before.data !== undefined && after.data !== undefined ? (
        <PageDiff
          before={before.data}
          after={after.data}
          links={links}
          sideBySide={sideBySide}
          variables={variables}
          aside={(key, block, change) => {
            if (change.kind === 'deleted') return null;
            const what = `the ${blockName(block)} “${preview(block)}”`;
            return (
              <>
                {(byNode.get(key) ?? []).map((thread) => <CommentThread key={thread.id} place={place} thread={thread} userId={userId} />)}
                {mayComment ? <NewComment place={place} pageId={pageId} what={what} target={() => ({ node: key, what, quote: selectionIn(key) })} /> : null}
              </>
            );
          }}
        />
      ) : null}
      {onPage.length > 0 || mayComment ? (
        <section aria-label="Comments on the page">
          <h3>Comments on the page</h3>
          {onPage.map((thread) => <CommentThread key={thread.id} place={place} thread={thread} userId={userId} />)}
          {mayComment ? <NewComment place={place} pageId={pageId} what="the page" target={() => ({ what: 'the page' })} /> : null}
        </section>
      ) : null}
      {outdated.length > 0 ? (
        <OutdatedThreads place={place} threads={outdated} userId={userId} Heading="h3" />
      ) : null}
    </section>
  );
}

function preview(block: FlowBlock): string {
  const text = blockText(block);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The text selected inside one block of the diff, to quote in a comment on it. */
function selectionIn(key: string): string {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || !selection.anchorNode) return '';
  const element = selection.anchorNode instanceof Element ? selection.anchorNode : selection.anchorNode.parentElement;
  return element?.closest('[data-block]')?.getAttribute('data-block') === key ? selection.toString() : '';
}

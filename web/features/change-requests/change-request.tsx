import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { changeRequestQuery, keys, meQuery, membersQuery, organizationQuery, spaceQuery } from '../../api/queries.ts';
import type { ChangeRequest, Space } from '../../api/types.ts';
import type { Document } from '../../../src/features/content/document/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import '../review/review.css';
import { SpaceHeader } from '../spaces/space-header.tsx';
import { changedPages } from './changed-pages.ts';
import { Description } from './description.tsx';
import { editTogetherPath, InTheEditorNow, takesEdits } from './presence.tsx';
import { hasDescription } from './description-text.ts';
import { effectiveRules, mergeBlockers, type MergeRules } from './merge-readiness.ts';
import { changesQuery, contributorsQuery, requestedReviewersQuery, reviewApi, reviewsQuery, type MergeConflictReport } from './review-api.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { TextArea, TextField } from '../../ui/text-field.tsx';
import { Badge } from '../../ui/badge.tsx';
import { statusTone } from './status-tone.ts';

// A page's diff and the conflict resolver load when first shown: the change request and its list come first.
const PageReview = lazy(async () => ({ default: (await import('./page-review.tsx')).PageReview }));
const ConflictResolver = lazy(async () => ({ default: (await import('./conflicts.tsx')).ConflictResolver }));

/**
 * One change request, to review and merge: its subject and status (and their moves), who wrote and who reviews
 * it, the pages it changes each with its diff and comment threads, the outdated banner, and the merge button that
 * says why it cannot be pressed yet.
 */
export default function ChangeRequestScreen() {
  const { spaceId = '', number = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const space = useQuery(spaceQuery(spaceId));
  const cr = useQuery(changeRequestQuery(spaceId, number));
  const me = useQuery(meQuery());
  const changes = useQuery(changesQuery(spaceId, number));
  const [conflicts, setConflicts] = useState<MergeConflictReport[]>([]);
  useTitle(cr.data ? `#${cr.data.number} ${cr.data.subject ?? ''}` : 'Change request');
  const pages = useMemo(() => changedPages(changes.data?.changes ?? []), [changes.data]);
  if (isNotFound(cr.error) || isNotFound(space.error)) return <main id="main" className="app-main"><NotFound what="change request" /></main>;
  const selected = pages.find((p) => p.id === params.get('page'));
  const permissions: Record<string, boolean | undefined> = (space.data as { permissions?: Record<string, boolean> } | undefined)?.permissions ?? {};
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      {cr.isPending ? <Skeleton lines={4} /> : null}
      <ErrorNote error={cr.error} />
      {cr.data && space.data ? (
        <div className="review-layout">
          <div>
            <Subject spaceId={spaceId} cr={cr.data} mayEdit={!!permissions.edit} />
            <StatusMoves spaceId={spaceId} cr={cr.data} mayEdit={!!permissions.edit} />
            <Description spaceId={spaceId} cr={cr.data} mayEdit={!!permissions.edit} />
            {cr.data.outdated ? <OutdatedBanner spaceId={spaceId} cr={cr.data} mayUpdate={!!permissions.edit} onConflicts={setConflicts} /> : null}
            <section aria-labelledby="changed-pages-title">
              <h2 id="changed-pages-title">Changed pages</h2>
              {changes.isPending ? <Skeleton lines={3} label="Loading the changes" /> : null}
              <ErrorNote error={changes.error} />
              {changes.data && pages.length === 0 ? <p>No page is changed yet.</p> : null}
              <ul className="change-list">
                {pages.map((page) => (
                  <li key={page.id}>
                    {page.kinds.map((kind) => (
                      <span key={kind} className={`change-kind change-${kind}`}>{kind}</span>
                    ))}
                    <Link to={`?page=${encodeURIComponent(page.id)}`} aria-current={selected?.id === page.id} onClick={(e) => (e.preventDefault(), setParams({ page: page.id }))}>
                      {page.title}
                    </Link>
                    {page.detail ? <span className="muted">{page.detail}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
            {selected ? (
              <Suspense fallback={<Skeleton lines={6} label="Loading the diff" />}>
              <PageReview
                key={`${selected.id}:${cr.data.revision}`}
                spaceId={spaceId}
                cr={cr.data}
                pageId={selected.id}
                title={selected.title}
                userId={me.data?.id ?? ''}
                mayComment={!!permissions.comment}
                editPath={permissions.edit && takesEdits(cr.data) && !selected.kinds.includes('deleted') ? editTogetherPath(spaceId, cr.data, selected.id) : undefined}
              />
              </Suspense>
            ) : pages.length > 0 ? (
              <p className="muted">Choose a page to see what changed in it.</p>
            ) : null}
            {conflicts.length > 0 ? (
              <Suspense fallback={<Skeleton lines={4} label="Loading the conflicts" />}>
                <ConflictResolver spaceId={spaceId} number={number} conflicts={conflicts} onResolved={() => setConflicts([])} />
              </Suspense>
            ) : null}
            <MergeBox spaceId={spaceId} cr={cr.data} space={space.data} userId={me.data?.id ?? ''} mayMerge={!!permissions.merge} conflicts={conflicts} onConflicts={setConflicts} />
          </div>
          <aside className="review-side" aria-label="Review">
            <InTheEditorNow spaceId={spaceId} cr={cr.data} mayEdit={!!permissions.edit} />
            <People spaceId={spaceId} cr={cr.data} />
            <Reviewers spaceId={spaceId} cr={cr.data} orgId={space.data.organization} mayRequest={!!permissions.edit} />
            <Reviews spaceId={spaceId} cr={cr.data} mayReview={!!permissions.review && me.data?.id !== cr.data.createdBy?.id} />
          </aside>
        </div>
      ) : null}
      <p>
        <Link to={`/s/${spaceId}/~/changes`}>All change requests</Link>
      </p>
    </main>
  );
}

function useRefresh(spaceId: string, cr: ChangeRequest) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: keys.changeRequest(spaceId, String(cr.number)) });
    await queryClient.invalidateQueries({ queryKey: ['space', spaceId, 'change-requests'] });
  };
}

function Subject({ spaceId, cr, mayEdit }: { spaceId: string; cr: ChangeRequest; mayEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const [subject, setSubject] = useState(cr.subject ?? '');
  const refresh = useRefresh(spaceId, cr);
  const save = useMutation({ mutationFn: () => reviewApi.update(spaceId, String(cr.number), { subject }), onSuccess: async () => (setEditing(false), await refresh()) });
  if (!editing) {
    return (
      <div className="title-row">
        <h1>
          #{cr.number} {cr.subject || 'Untitled change request'} <Badge tone={statusTone(cr.status)}>{cr.status}</Badge>
        </h1>
        {mayEdit && cr.status !== 'merged' ? (
          <Button onClick={() => (setSubject(cr.subject ?? ''), setEditing(true))}>
            Edit subject
          </Button>
        ) : null}
      </div>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="inline-form" onSubmit={onSubmit}>
      <h1 className="sr-only">#{cr.number} {cr.subject}</h1>
      <TextField label="Subject" value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} />
      <Button variant="primary" type="submit" disabled={save.isPending}>Save subject</Button>
      <Button onClick={() => setEditing(false)}>Cancel</Button>
      <ErrorNote error={save.error} />
    </form>
  );
}

/** The moves a status allows: a draft is made ready, an open one set back to draft or archived, an archived one reopened. */
const MOVES: Record<string, { to: 'draft' | 'open' | 'archived'; label: string }[]> = {
  draft: [{ to: 'open', label: 'Ready for review' }, { to: 'archived', label: 'Archive' }],
  open: [{ to: 'draft', label: 'Convert to draft' }, { to: 'archived', label: 'Archive' }],
  archived: [{ to: 'open', label: 'Reopen' }],
  merged: [],
};

function StatusMoves({ spaceId, cr, mayEdit }: { spaceId: string; cr: ChangeRequest; mayEdit: boolean }) {
  const refresh = useRefresh(spaceId, cr);
  const move = useMutation({ mutationFn: (status: 'draft' | 'open' | 'archived') => reviewApi.update(spaceId, String(cr.number), { status }), onSuccess: refresh });
  const moves = mayEdit ? (MOVES[cr.status] ?? []) : [];
  // Quire's ChangeRequest says when and by whom it was merged (the official type has no such fields).
  const merged = cr as ChangeRequest & { mergedAt?: string; mergedBy?: { displayName: string } };
  return (
    <>
      <dl className="facts">
        <dt>Opened by</dt>
        <dd>{cr.createdBy?.displayName} on {new Date(cr.createdAt).toLocaleString()}</dd>
        {merged.mergedAt ? (
          <>
            <dt>Merged</dt>
            <dd>{new Date(merged.mergedAt).toLocaleString()}{merged.mergedBy ? ` by ${merged.mergedBy.displayName}` : ''}</dd>
          </>
        ) : null}
      </dl>
      {moves.length > 0 ? (
        <div className="thread-actions" role="group" aria-label="Status">
          {moves.map((m) => (
            <Button key={m.to} disabled={move.isPending} onClick={() => move.mutate(m.to)}>
              {m.label}
            </Button>
          ))}
        </div>
      ) : null}
      <ErrorNote error={move.error} />
    </>
  );
}

function OutdatedBanner({ spaceId, cr, mayUpdate, onConflicts }: { spaceId: string; cr: ChangeRequest; mayUpdate: boolean; onConflicts: (c: MergeConflictReport[]) => void }) {
  const refresh = useRefresh(spaceId, cr);
  const update = useMutation({
    mutationFn: () => reviewApi.updateFromMain(spaceId, String(cr.number)),
    onSuccess: async (answer) => {
      onConflicts(answer.result === 'conflicts' ? (answer.conflicts ?? []) : []);
      await refresh();
    },
  });
  return (
    <div className="banner banner-warning" role="status">
      <span>The space changed since this change request was opened or last updated.</span>
      {mayUpdate && cr.status !== 'merged' ? (
        <Button disabled={update.isPending} onClick={() => update.mutate()}>
          Update from main
        </Button>
      ) : null}
      {update.data?.result === 'conflicts' ? <span>Main could not be brought in: it conflicts (see below).</span> : null}
      <ErrorNote error={update.error} />
    </div>
  );
}

function People({ spaceId, cr }: { spaceId: string; cr: ChangeRequest }) {
  const contributors = useQuery(contributorsQuery(spaceId, String(cr.number)));
  return (
    <section aria-labelledby="contributors-title">
      <h2 id="contributors-title">Contributors</h2>
      <ErrorNote error={contributors.error} />
      <ul>
        <li>{cr.createdBy?.displayName} <span className="muted">author</span></li>
        {(contributors.data?.items ?? [])
          .filter((c) => c.user.id !== cr.createdBy?.id || c.actionType !== 'edit')
          .map((c) => (
            <li key={`${c.user.id}:${c.actionType}`}>
              {c.user.displayName} <span className="muted">{c.actionType === 'edit' ? 'edited' : 'commented'} ({c.count})</span>
            </li>
          ))}
      </ul>
    </section>
  );
}

function Reviewers({ spaceId, cr, orgId, mayRequest }: { spaceId: string; cr: ChangeRequest; orgId: string; mayRequest: boolean }) {
  const number = String(cr.number);
  const requested = useQuery(requestedReviewersQuery(spaceId, number));
  const members = useQuery({ ...membersQuery(orgId), enabled: mayRequest });
  const [userId, setUserId] = useState('');
  const refresh = useRefresh(spaceId, cr);
  const request = useMutation({ mutationFn: () => reviewApi.requestReviewers(spaceId, number, [userId]), onSuccess: async () => (setUserId(''), await refresh()) });
  const remove = useMutation({ mutationFn: (user: string) => reviewApi.removeReviewer(spaceId, number, user), onSuccess: refresh });
  const asked = new Set((requested.data?.items ?? []).map((r) => (r.kind === 'user' ? r.user.id : '')));
  const candidates = (members.data ?? []).filter((m) => m.user.id !== cr.createdBy?.id && !asked.has(m.user.id));
  return (
    <section aria-labelledby="reviewers-title">
      <h2 id="reviewers-title">Requested reviewers</h2>
      <ErrorNote error={requested.error} />
      {requested.data && requested.data.items.length === 0 ? <p className="muted">Nobody is asked to review yet.</p> : null}
      <ul>
        {(requested.data?.items ?? []).map((r) =>
          r.kind === 'user' ? (
            <li key={r.user.id}>
              {r.user.displayName}
              {mayRequest && cr.status !== 'merged' ? (
                <Button variant="ghost" size="sm" aria-label={`Remove ${r.user.displayName} from the reviewers`} onClick={() => remove.mutate(r.user.id)}>
                  Remove
                </Button>
              ) : null}
            </li>
          ) : null,
        )}
      </ul>
      <ErrorNote error={remove.error} />
      {mayRequest && cr.status !== 'merged' ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (userId) request.mutate();
          }}
        >
          <Select label="Reviewer" placeholder="Choose a member…" value={userId} onValueChange={setUserId} options={candidates.map((m) => ({ value: m.user.id, label: m.user.displayName }))} />
          <Button type="submit" disabled={!userId || request.isPending}>Request review</Button>
          <ErrorNote error={request.error ?? members.error} />
        </form>
      ) : null}
    </section>
  );
}

function Reviews({ spaceId, cr, mayReview }: { spaceId: string; cr: ChangeRequest; mayReview: boolean }) {
  const number = String(cr.number);
  const reviews = useQuery(reviewsQuery(spaceId, number));
  const [comment, setComment] = useState('');
  const refresh = useRefresh(spaceId, cr);
  const submit = useMutation({
    mutationFn: (status: 'approved' | 'changes-requested') => reviewApi.submitReview(spaceId, number, status, comment),
    onSuccess: async () => (setComment(''), await refresh()),
  });
  return (
    <section aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <ErrorNote error={reviews.error} />
      {reviews.data && reviews.data.items.length === 0 ? <p className="muted">No review yet.</p> : null}
      <ul>
        {(reviews.data?.items ?? []).map((r) => (
          <li key={r.id}>
            <strong>{r.reviewer.displayName}</strong>
            <span className={r.status === 'approved' ? 'change-kind change-added' : 'change-kind change-deleted'}>
              {r.status === 'approved' ? 'approved' : 'requested changes'}
            </span>
            {r.comment ? <span>{(r.comment.body as { markdown?: string }).markdown}</span> : null}
          </li>
        ))}
      </ul>
      {mayReview && (cr.status === 'open' || cr.status === 'draft') ? (
        <form className="review-form" onSubmit={(e) => e.preventDefault()}>
          <TextArea label="Review comment" value={comment} onChange={(e) => setComment(e.target.value)} />
          <div className="thread-actions">
            <Button variant="primary" disabled={submit.isPending} onClick={() => submit.mutate('approved')}>Approve</Button>
            <Button disabled={submit.isPending} onClick={() => submit.mutate('changes-requested')}>Request changes</Button>
          </div>
          <ErrorNote error={submit.error} />
        </form>
      ) : null}
    </section>
  );
}

function MergeBox(props: { spaceId: string; cr: ChangeRequest; space: Space; userId: string; mayMerge: boolean; conflicts: MergeConflictReport[]; onConflicts: (c: MergeConflictReport[]) => void }) {
  const { spaceId, cr, space, userId, mayMerge, conflicts, onConflicts } = props;
  const number = String(cr.number);
  const organization = useQuery(organizationQuery(space.organization));
  const reviews = useQuery(reviewsQuery(spaceId, number));
  const refresh = useRefresh(spaceId, cr);
  const queryClient = useQueryClient();
  const merge = useMutation({
    mutationFn: () => reviewApi.merge(spaceId, number),
    onSuccess: async (answer) => {
      onConflicts(answer.result === 'conflicts' ? (answer.conflicts ?? []) : []);
      await refresh();
      if (answer.result === 'merge') await queryClient.invalidateQueries({ queryKey: keys.space(spaceId) });
    },
  });
  if (cr.status === 'merged') return <p className="banner banner-info">Merged into the space.</p>;
  const rules = effectiveRules((space as { mergeRules?: MergeRules }).mergeRules, (organization.data as { mergeRules?: MergeRules } | undefined)?.mergeRules);
  const reasons = mergeBlockers(rules, {
    status: cr.status,
    subject: cr.subject ?? '',
    described: hasDescription(cr.description as Document | undefined),
    outdated: cr.outdated,
    mayMerge,
    userId,
    reviews: (reviews.data?.items ?? []).map((r) => ({ reviewerId: r.reviewer.id, reviewerName: r.reviewer.displayName, status: r.status })),
    names: new Map((reviews.data?.items ?? []).map((r) => [r.reviewer.id, r.reviewer.displayName])),
    conflicts: conflicts.length,
  });
  return (
    <section className="merge-box" aria-labelledby="merge-title">
      <h2 id="merge-title">Merge</h2>
      <Button variant="primary" disabled={reasons.length > 0 || merge.isPending} aria-describedby="merge-reasons" onClick={() => merge.mutate()}>
        Merge change request
      </Button>
      <ul id="merge-reasons" className="merge-reasons">
        {reasons.length === 0 ? <li>Ready to merge.</li> : reasons.map((r) => <li key={r}>{r}</li>)}
      </ul>
      <ErrorNote error={merge.error} />
    </section>
  );
}

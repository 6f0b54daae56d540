import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { errorMessage } from '../../api/client.ts';
import { trashQuery } from '../../api/queries.ts';
import type { TrashedSpace } from '../../api/types.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { useSidebarActions } from './sidebar-actions.ts';
import { daysLeftLabel } from './trash.ts';
import { Button } from '../../ui/button.tsx';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The organization's trash: every deleted space one can read, who deleted it and when, restorable for 7 days. */
export default function TrashScreen() {
  const { orgId = '' } = useParams();
  useTitle('Trash');
  const trash = useQuery(trashQuery(orgId));
  const now = Date.now();
  return (
    <main id="main" className="app-main">
      <h1>Trash</h1>
      <p className="muted">Deleted spaces can be restored for 7 days; then they are removed for good.</p>
      {trash.isPending ? <Skeleton lines={4} label="Loading the trash" /> : null}
      <ErrorNote error={trash.error} />
      {trash.data && trash.data.length === 0 ? (
        <EmptyState title="The trash is empty">
          <p>A space you delete waits here for 7 days, so it can be restored.</p>
        </EmptyState>
      ) : null}
      {trash.data && trash.data.length > 0 ? (
        <ul className="trash-list" aria-label="Deleted spaces">
          {trash.data.map((item) => <TrashRow key={item.space.id} item={item} orgId={orgId} now={now} />)}
        </ul>
      ) : null}
    </main>
  );
}

function TrashRow({ item, orgId, now }: { item: TrashedSpace; orgId: string; now: number }) {
  const actions = useSidebarActions(orgId);
  const [error, setError] = useState<string>();
  const { space } = item;
  const emoji = emojiCharacter(space.emoji);
  const restore = async () => {
    setError(undefined);
    try {
      await actions.restore.mutateAsync(space.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <li className="trash-item">
      <div>
        <strong>{emoji ? <span aria-hidden="true">{emoji} </span> : null}{space.title}</strong>
        <p className="muted">
          Deleted {item.deletedBy ? <>by {item.deletedBy.displayName} </> : null}on <time dateTime={space.deletedAt}>{space.deletedAt ? dateTime.format(new Date(space.deletedAt)) : ''}</time>
          {' · '}
          {/* The date in words beside the count, not in a tooltip that a keyboard or a phone never shows. */}
          {daysLeftLabel(item.restorableUntil, now)} (restorable until <time dateTime={item.restorableUntil}>{dateTime.format(new Date(item.restorableUntil))}</time>)
        </p>
        {error ? <p role="alert" className="error-note">{error}</p> : null}
      </div>
      {space.permissions.admin ? (
        <Button onClick={() => void restore()} disabled={actions.restore.isPending}>Restore {space.title}</Button>
      ) : (
        <span className="muted">Only an admin of this space can restore it</span>
      )}
    </li>
  );
}

import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ChangeRequest } from '../../api/types.ts';
import { Avatar, personColor } from '../../ui/avatar.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { Tooltip } from '../../ui/tooltip.tsx';
import { presenceQuery } from './review-api.ts';

/** Where a page of the change request is edited together (the editing screen, in this change request). */
export const editTogetherPath = (spaceId: string, cr: ChangeRequest, pageId: string) => `/s/${spaceId}/~/edit/${pageId}?changeRequest=${encodeURIComponent(cr.id)}`;

/** Whether the change request's pages can still be edited: a merged or archived one takes no edits. */
export const takesEdits = (cr: ChangeRequest) => cr.status === 'draft' || cr.status === 'open';

/**
 * Who has which page of the change request open in the editor now (issue 31), each page with the avatars of its
 * people and, for those who may edit, a link to join them.
 */
export function InTheEditorNow({ spaceId, cr, mayEdit }: { spaceId: string; cr: ChangeRequest; mayEdit: boolean }) {
  const presence = useQuery(presenceQuery(spaceId, String(cr.number)));
  const items = presence.data?.items ?? [];
  return (
    <section aria-labelledby="presence-title">
      <h2 id="presence-title">In the editor now</h2>
      <ErrorNote error={presence.error} />
      {presence.data && items.length === 0 ? <p className="muted">Nobody has a page of this change request open.</p> : null}
      <ul className="presence-pages">
        {items.map(({ page, people }) => (
          <li key={page.id}>
            <span className="presence-page-title">{page.title}</span>
            <ul className="people-in-page" aria-label={`People in “${page.title}”`}>
              {people.map(({ user, access }) => {
                const label = `${user.displayName} is ${access === 'edit' ? 'editing' : 'viewing'}`;
                return (
                  <Tooltip key={user.id} content={label}>
                    <li>
                      <Avatar name={user.displayName} label={label} color={personColor(user.id)} />
                    </li>
                  </Tooltip>
                );
              })}
            </ul>
            {mayEdit && takesEdits(cr) ? (
              <Link to={editTogetherPath(spaceId, cr, page.id)} aria-label={`Join the editing of “${page.title}”`}>
                Join
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

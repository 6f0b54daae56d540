import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unreadQuery } from './inbox-api.ts';
import './inbox.css';

/** The header's way to the inbox, saying how many notifications are unread. */
export function InboxButton() {
  const summary = useQuery(unreadQuery());
  const unread = summary.data?.unread ?? 0;
  return (
    <Link to="/inbox" className="button inbox-button">
      Inbox{' '}
      {unread > 0 ? (
        <>
          <span className="inbox-count">{unread}</span>
          <span className="sr-only"> unread</span>
        </>
      ) : null}
    </Link>
  );
}

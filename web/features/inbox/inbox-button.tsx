import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { faInbox } from '@fortawesome/free-solid-svg-icons';
import { buttonClass } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { unreadQuery } from './inbox-api.ts';
import './inbox.css';

/** The header's way to the inbox, saying how many notifications are unread. */
export function InboxButton() {
  const summary = useQuery(unreadQuery());
  const unread = summary.data?.unread ?? 0;
  return (
    <Link to="/inbox" className={buttonClass('ghost', 'md', 'inbox-button')}>
      <Icon icon={faInbox} />
      <span className="header-label">Inbox</span>{' '}
      {unread > 0 ? (
        <>
          <span className="inbox-count">{unread}</span>
          <span className="sr-only"> unread</span>
        </>
      ) : null}
    </Link>
  );
}

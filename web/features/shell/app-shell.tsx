import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api, errorMessage, isUnauthorized } from '../../api/client.ts';
import { meQuery } from '../../api/queries.ts';
import { Skeleton } from '../../ui/states.tsx';
import { SearchDialog } from '../search/search-dialog.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { InboxButton } from '../inbox/inbox-button.tsx';

/**
 * Every screen of a signed-in person: the header (home, search, the person's menu) over the screen. Without a
 * session the person is sent to sign in, and comes back to the URL they opened.
 */
export function AppShell() {
  const me = useQuery(meQuery());
  const location = useLocation();
  const [searchOpen, setSearchOpen] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSearchOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (me.error && isUnauthorized(me.error)) {
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/sign-in?returnTo=${encodeURIComponent(returnTo)}`} replace />;
  }
  return (
    <div className="app">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="app-header">
        <Link to="/" className="app-logo">Quire</Link>
        <button type="button" className="search-trigger" onClick={() => setSearchOpen(true)} aria-keyshortcuts="Control+K Meta+K">
          Search <kbd aria-hidden="true">Ctrl K</kbd>
        </button>
        <div className="header-end">
          <ThemeToggle />
          {me.data ? <InboxButton /> : null}
          {me.data ? <UserMenu name={me.data.displayName} /> : null}
        </div>
      </header>
      {me.isPending ? (
        <main id="main" className="app-main"><Skeleton lines={6} /></main>
      ) : me.error ? (
        <main id="main" className="app-main"><p role="alert" className="error-note">{errorMessage(me.error)}</p></main>
      ) : (
        <Outlet />
      )}
      {searchOpen ? <SearchDialog onClose={() => setSearchOpen(false)} /> : null}
    </div>
  );
}

function UserMenu({ name }: { name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const signOut = async () => {
    try {
      await api('POST', '/auth/sign-out');
      queryClient.clear();
      navigate('/sign-in');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <details className="user-menu">
      <summary aria-label={`Account of ${name}`}>{name}</summary>
      <ul>
        <li><Link to="/settings/profile">Profile</Link></li>
        <li><Link to="/settings/tokens">API tokens</Link></li>
        <li><button type="button" onClick={signOut}>Sign out</button></li>
      </ul>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </details>
  );
}

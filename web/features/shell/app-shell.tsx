import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { faChevronDown, faKey, faMagnifyingGlass, faRightFromBracket, faUser } from '@fortawesome/free-solid-svg-icons';
import { api, errorMessage, isUnauthorized } from '../../api/client.ts';
import { meQuery } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '../../ui/menus.tsx';
import { Skeleton } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { BackgroundWork } from './background-work.tsx';
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
        <Button variant="secondary" icon={faMagnifyingGlass} className="search-trigger" onClick={() => setSearchOpen(true)} aria-keyshortcuts="Control+K Meta+K">
          <span className="header-label">Search</span> <kbd aria-hidden="true">Ctrl K</kbd>
        </Button>
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
      <BackgroundWork />
    </div>
  );
}

function UserMenu({ name }: { name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const signOut = async () => {
    try {
      await api('POST', '/auth/sign-out');
      queryClient.clear();
      navigate('/sign-in');
    } catch (e) {
      toast({ title: 'Could not sign out', description: errorMessage(e), tone: 'error' });
    }
  };
  return (
    <DropdownMenu
      label={`Account of ${name}`}
      trigger={
        <Button variant="ghost" className="user-menu-trigger" aria-label={`Account of ${name}`}>
          <span className="user-menu-name">{name}</span>
          <Icon icon={faChevronDown} className="user-menu-chevron" />
        </Button>
      }
    >
      <DropdownMenuItem asChild>
        <Link to="/settings/profile">
          <Icon icon={faUser} />
          Profile
        </Link>
      </DropdownMenuItem>
      <DropdownMenuItem asChild>
        <Link to="/settings/tokens">
          <Icon icon={faKey} />
          API tokens
        </Link>
      </DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem icon={faRightFromBracket} onSelect={() => void signOut()}>
        Sign out
      </DropdownMenuItem>
    </DropdownMenu>
  );
}

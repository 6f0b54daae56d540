import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { faList, faSort } from '@fortawesome/free-solid-svg-icons';
import { organizationsQuery } from '../../api/queries.ts';
import { IconButton } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuCheckItem, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../ui/menus.tsx';

/**
 * The button beside the organization's title at the top of the sidebar: a menu of the person's organizations (the
 * Home list's query), the current one checked, each opening that organization, and the Home list itself.
 */
export function OrganizationSwitcher({ current }: { current: string }) {
  const organizations = useQuery(organizationsQuery());
  const navigate = useNavigate();
  return (
    <DropdownMenu label="Switch organization" align="start" trigger={<IconButton icon={faSort} label="Switch organization" size="sm" className="org-switcher" />}>
      <DropdownMenuLabel>Your organizations</DropdownMenuLabel>
      {organizations.data
        ? organizations.data.map((org) => (
            <DropdownMenuCheckItem key={org.id} checked={org.id === current} onSelect={() => void navigate(`/o/${org.id}`)}>
              {org.title}
            </DropdownMenuCheckItem>
          ))
        : null}
      {organizations.isPending ? <DropdownMenuItem disabled>Loading…</DropdownMenuItem> : null}
      {organizations.error ? <DropdownMenuItem disabled>Could not load your organizations</DropdownMenuItem> : null}
      <DropdownMenuSeparator />
      <DropdownMenuItem asChild>
        <Link to="/">
          <Icon icon={faList} />
          All organizations
        </Link>
      </DropdownMenuItem>
    </DropdownMenu>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { organizationQuery, spaceQuery } from '../../api/queries.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { SpecsOrganizationContext } from '../pages/specs-organization.ts';
import { useIsAdmin } from '../members/use-is-admin.ts';
import { OrganizationSwitcher } from './organization-switcher.tsx';
import { Sidebar } from './sidebar.tsx';
import { useOrganizationId } from './use-organization.ts';
import { Button } from '../../ui/button.tsx';
import { faBars, faXmark } from '@fortawesome/free-solid-svg-icons';

/** The frame of an organization's screens: its sidebar (a drawer on narrow screens) beside the screen. */
export default function OrganizationLayout() {
  const { orgId, error } = useOrganizationId();
  const organization = useQuery({ ...organizationQuery(orgId ?? ''), enabled: !!orgId });
  const [open, setOpen] = useState(false);
  const isAdmin = useIsAdmin(orgId ?? '');
  const location = useLocation();
  // A space's documents point at its own organization's OpenAPI specs (whichever its URL names): every screen of
  // the space draws their blocks, its page, a change request's diff, a revision, the editor's reusable content.
  const { spaceId } = useParams();
  const space = useQuery({ ...spaceQuery(spaceId ?? ''), enabled: !!spaceId });
  const specsOrganization = spaceId ? space.data?.organization : orgId;
  useEffect(() => setOpen(false), [location.pathname]);

  const failure = error ?? organization.error;
  if (failure && isNotFound(failure)) {
    return (
      <main id="main" className="app-main">
        <NotFound />
      </main>
    );
  }
  return (
    <div className={open ? 'org-layout sidebar-open' : 'org-layout'}>
      <Button className="sidebar-toggle-button" icon={open ? faXmark : faBars} aria-expanded={open} aria-controls="org-sidebar" onClick={() => setOpen(!open)}>
        {open ? 'Close menu' : 'Menu'}
      </Button>
      <nav id="org-sidebar" className="org-sidebar" aria-label="Organization">
        {organization.data ? (
          <>
            <div className="org-heading">
              <NavLink to={`/o/${organization.data.id}`} end className="org-title">{organization.data.title}</NavLink>
              <OrganizationSwitcher current={organization.data.id} />
            </div>
            <ul className="org-links">
              <li><NavLink to={`/o/${organization.data.id}/members`}>Members</NavLink></li>
              <li><NavLink to={`/o/${organization.data.id}/teams`}>Teams</NavLink></li>
              {isAdmin ? <li><NavLink to={`/o/${organization.data.id}/settings/sso`}>Single sign-on</NavLink></li> : null}
              {isAdmin ? <li><NavLink to={`/o/${organization.data.id}/settings/audit`}>Audit log</NavLink></li> : null}
              <li><NavLink to={`/o/${organization.data.id}/sites`}>Sites</NavLink></li>
              <li><NavLink to={`/o/${organization.data.id}/integrations`}>Integrations</NavLink></li>
              <li><NavLink to={`/o/${organization.data.id}/openapi`}>OpenAPI</NavLink></li>
              <li><NavLink to={`/o/${organization.data.id}/translations`}>Translations</NavLink></li>
              <li><NavLink to={`/o/${organization.data.id}/settings`}>Settings</NavLink></li>
            </ul>
          </>
        ) : (
          <Skeleton lines={1} label="Loading the organization" />
        )}
        <ErrorNote error={failure} />
        {orgId ? <Sidebar orgId={orgId} /> : null}
      </nav>
      <SpecsOrganizationContext.Provider value={specsOrganization}>
        <Outlet />
      </SpecsOrganizationContext.Provider>
    </div>
  );
}

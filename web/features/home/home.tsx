import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { organizationsQuery } from '../../api/queries.ts';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { recentSpaces } from './recent-spaces.ts';

/** Home: the person's organizations and the spaces they opened last; with one organization, that organization. */
export default function Home() {
  useTitle('Home');
  const organizations = useQuery(organizationsQuery());
  const recent = recentSpaces();
  // A person in one organization lands in it: the list would hold that one card.
  if (organizations.data?.length === 1) return <Navigate to={`/o/${organizations.data[0]!.id}`} replace />;
  return (
    <main id="main" className="app-main">
      <h1>Home</h1>
      <section aria-labelledby="orgs-title">
        <h2 id="orgs-title">Organizations</h2>
        {organizations.isPending ? <Skeleton lines={3} /> : null}
        <ErrorNote error={organizations.error} />
        {organizations.data ? (
          organizations.data.length === 0 ? (
            <EmptyState headingLevel={3} title="No organization yet">
              <p>An organization holds your team’s spaces, sites and members. Ask an administrator of yours for an invitation link, and open it here.</p>
            </EmptyState>
          ) : (
            <ul className="card-list">
              {organizations.data.map((org) => (
                <li key={org.id}>
                  <Link className="card" to={`/o/${org.id}`}>{org.title}</Link>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Recently opened spaces</h2>
        {recent.length === 0 ? (
          <EmptyState headingLevel={3} title="No space opened yet">
            <p>The spaces you open show here, so you can go back to them in one click.</p>
          </EmptyState>
        ) : (
          <ul className="card-list">
            {recent.map((space) => (
              <li key={space.id}>
                <Link className="card" to={`/o/${space.organization}/s/${space.id}`}>
                  {emojiCharacter(space.emoji) ? <span aria-hidden="true">{emojiCharacter(space.emoji)} </span> : null}
                  {space.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

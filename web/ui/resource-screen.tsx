import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isNotFound } from '../api/client.ts';
import { ErrorNote, NotFound, Skeleton } from './states.tsx';
import { useTitle } from './title.ts';

/**
 * A screen that shows one resource of the API (a site, an integration, a team, …): its title, facts and links.
 * Managing them in full comes later; this is where their `urls.app` lead.
 */
export function ResourceScreen<T>({ query, what, title, facts, children }: {
  query: UseQueryResult<T | null>;
  what: string;
  title: (value: T) => string;
  facts: (value: T) => [string, ReactNode][];
  children?: (value: T) => ReactNode;
}) {
  useTitle(query.data ? title(query.data) : undefined);
  if (isNotFound(query.error) || query.data === null) return <main id="main" className="app-main"><NotFound what={what} /></main>;
  return (
    <main id="main" className="app-main">
      {query.isPending ? <Skeleton lines={4} label={`Loading the ${what}`} /> : null}
      <ErrorNote error={query.error} />
      {query.data ? (
        <>
          <p className="kind">{what[0]!.toUpperCase() + what.slice(1)}</p>
          <h1>{title(query.data)}</h1>
          <dl className="facts">
            {facts(query.data).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {children?.(query.data)}
        </>
      ) : null}
    </main>
  );
}

/** An outside link (the published site, the API's URL), opened like any link. */
export function External({ href }: { href: string | undefined }) {
  return href ? <a href={href} rel="noopener">{href}</a> : <>—</>;
}

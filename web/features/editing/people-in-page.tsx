import type { HocuspocusProvider } from '@hocuspocus/provider';
import { initials } from '../../ui/avatar.tsx';
import { Tooltip } from '../../ui/tooltip.tsx';
import { usePeopleInPage } from './collaboration.ts';

/** Avatars of who is in the page now, in their caret's colour; the person's own first. */
export function PeopleInPage({ provider }: { provider: HocuspocusProvider }) {
  const people = usePeopleInPage(provider);
  if (people.length === 0) return null;
  return (
    <ul className="people-in-page" aria-label="People in this page">
      {people.map((person) => (
        <Tooltip key={person.clientId} content={person.self ? `${person.name} (you)` : person.name}>
          <li className="person-avatar" style={{ backgroundColor: person.color }}>
            <span aria-hidden="true">{initials(person.name)}</span>
            <span className="people-in-page-name">{person.self ? `${person.name} (you)` : person.name}</span>
          </li>
        </Tooltip>
      ))}
    </ul>
  );
}

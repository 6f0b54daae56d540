import type { HocuspocusProvider } from '@hocuspocus/provider';
import { Avatar } from '../../ui/avatar.tsx';
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
          <li>
            <Avatar name={person.name} label={person.self ? `${person.name} (you)` : person.name} color={person.color} />
          </li>
        </Tooltip>
      ))}
    </ul>
  );
}

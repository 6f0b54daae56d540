import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState, type KeyboardEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { organizationSearchQuery, spaceSearchQuery } from '../../api/queries.ts';
import type { SearchPageResult } from '../../api/types.ts';
import { appPath } from '../../ui/app-path.ts';
import { ErrorNote } from '../../ui/states.tsx';
import { useOrganizationId } from '../organizations/use-organization.ts';
import { Dialog } from '../../ui/dialogs.tsx';
import { Button } from '../../ui/button.tsx';
import { AskAnswer } from './ask-answer.tsx';
import { askAvailabilityQuery } from './ask-availability.ts';

interface Hit { key: string; title: string; context: string; app: string }

/**
 * Ctrl/Cmd-K: search the open space, or the whole organization elsewhere (the search API), and go to a page
 * with the arrow keys and Enter; or ask the docs the typed question (Ask, across what the member can read of the
 * organization). In the kit's modal Dialog: focus stays inside, Escape or a click outside closes it.
 */
export function SearchDialog({ onClose }: { onClose: () => void }) {
  const { spaceId } = useParams();
  const { orgId } = useOrganizationId();
  const [text, setText] = useState('');
  const query = useDeferredValue(text);
  const [active, setActive] = useState(0);
  const [asked, setAsked] = useState<string | undefined>();
  const navigate = useNavigate();
  const inSpace = useQuery({ ...spaceSearchQuery(spaceId ?? '', query), enabled: !!spaceId && query.trim() !== '' });
  const ask = useQuery({ ...askAvailabilityQuery(orgId ?? ''), enabled: !!orgId });
  const inOrg = useQuery({ ...organizationSearchQuery(orgId ?? '', query), enabled: !spaceId && !!orgId && query.trim() !== '' });
  const hits: Hit[] = spaceId
    ? (inSpace.data?.items ?? []).map((page) => hitOf(page, ''))
    : (inOrg.data?.items ?? []).flatMap((space) => space.pages.map((page) => hitOf(page, space.title)));
  const error = spaceId ? inSpace.error : inOrg.error;

  useEffect(() => setActive(0), [query]);

  const open = (hit: Hit | undefined) => {
    if (!hit) return;
    onClose();
    navigate(appPath(hit.app));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((a) => Math.min(a + 1, hits.length - 1)),
      ArrowUp: () => setActive((a) => Math.max(a - 1, 0)),
      Enter: () => open(hits[active]),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  return (
    <Dialog open onOpenChange={(open) => open || onClose()} title="Search" hideTitle size="lg" className="search-dialog">
      <input
        type="search"
        aria-label="Search"
        placeholder={spaceId ? 'Search this space' : orgId ? 'Search the organization' : 'Open an organization to search it'}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded={hits.length > 0}
        aria-controls="search-results"
        aria-activedescendant={hits[active] ? `hit-${active}` : undefined}
        autoFocus
      />
      {orgId && text.trim() !== '' && ask.data?.available !== false ? (
        <Button className="ask-button" onClick={() => setAsked(text.trim())}>
          Ask the docs: “{text.trim()}”
        </Button>
      ) : null}
      {orgId && text.trim() !== '' && ask.data?.available === false ? <p className="ui-field-hint">{ask.data.message}</p> : null}
      {orgId && asked ? (
        <AskAnswer
          orgId={orgId}
          question={asked}
          onAsk={(question) => {
            setText(question);
            setAsked(question);
          }}
          onOpen={onClose}
        />
      ) : null}
      <ErrorNote error={error} />
      <ul id="search-results" role="listbox" aria-label="Results">
        {hits.map((hit, i) => (
          <li key={hit.key} id={`hit-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined} onClick={() => open(hit)} onMouseEnter={() => setActive(i)}>
            <span className="hit-title">{hit.title}</span>
            {hit.context ? <span className="hit-context">{hit.context}</span> : null}
          </li>
        ))}
      </ul>
      {query.trim() !== '' && !(inSpace.isFetching || inOrg.isFetching) && hits.length === 0 && !error ? <p role="status">Nothing found for “{query}”.</p> : null}
    </Dialog>
  );
}

function hitOf(page: SearchPageResult, spaceTitle: string): Hit {
  const section = page.sections?.[0];
  const context = [spaceTitle, section?.title && section.title !== page.title ? section.title : ''].filter(Boolean).join(' › ');
  return { key: page.id, title: page.title, context, app: page.urls.app };
}

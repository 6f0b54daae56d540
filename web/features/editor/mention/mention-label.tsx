import { createContext, useContext, useEffect, useState } from 'react';
import { loadMentionCandidates, type MentionCandidate } from './mention-data.ts';

/** Where the editor is: whose members and which space's pages a mention names. */
export const MentionPlace = createContext<{ organizationId: string; spaceId: string } | null>(null);

/** The candidates of the editor's place once read (the same read as the `@` picker's), or null until then. */
function useCandidates(): MentionCandidate[] | null {
  const place = useContext(MentionPlace);
  const [candidates, setCandidates] = useState<MentionCandidate[] | null>(null);
  useEffect(() => {
    if (!place) return;
    let live = true;
    loadMentionCandidates(place.organizationId, place.spaceId).then(
      (found) => live && setCandidates(found),
      () => live && setCandidates([]),
    );
    return () => {
      live = false;
    };
  }, [place]);
  return candidates;
}

/**
 * What a mention shows, as the page view and the reader show it: the member's name or the page's title. One the
 * editor cannot name (a page of another space, someone who left) says what it refers to.
 */
export function MentionLabel({ target }: { target: { kind?: string; user?: unknown; page?: unknown } | undefined }) {
  const candidates = useCandidates();
  const id = target?.kind === 'user' ? target.user : target?.kind === 'page' ? target.page : undefined;
  const found = candidates?.find((c) => c.kind === target?.kind && c.id === id);
  const label = found?.label ?? (candidates === null ? '…' : target?.kind === 'user' ? 'someone outside the organization' : target?.kind === 'page' ? 'a page of another space' : 'a reference');
  return <span className="mention">{label}</span>;
}

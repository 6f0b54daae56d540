import { allPages, api } from '../../../api/client.ts';
import type { OrganizationMember, Revision, RevisionPage } from '../../../api/types.ts';
import { rankMatches } from '../slash/fuzzy-match.ts';

/*
 * Who and what `@` can mention: the organization's members and the space's pages, as GitBook's `mention` inline
 * refers to them (`{ kind: 'user', user }`, `{ kind: 'page', page }`). Read from the public API the first time a
 * person types `@` on a page, and kept for a minute: pages
 * made since then are offered at the next `@` after it.
 */

export interface MentionCandidate {
  kind: 'user' | 'page';
  id: string;
  /** A member's name, or a page's title. */
  label: string;
  /** A member's e-mail, or a page's path: what tells two alike apart. */
  detail: string;
  /** A member's photo. */
  photo?: string;
}

/** The pages a space's revision holds, in the tree's order; groups and links are not pages one mentions. */
export function pagesOf(pages: readonly RevisionPage[]): MentionCandidate[] {
  const found: MentionCandidate[] = [];
  const stack = [...pages].reverse();
  while (stack.length > 0) {
    const page = stack.pop()!;
    if (page.type === 'document') found.push({ kind: 'page', id: page.id, label: page.title, detail: page.path ?? '' });
    const children = 'pages' in page && Array.isArray(page.pages) ? (page.pages as RevisionPage[]) : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

export function membersOf(members: readonly OrganizationMember[]): MentionCandidate[] {
  return members.map((m) => ({ kind: 'user', id: m.user.id, label: m.user.displayName, detail: m.user.email ?? '', ...(m.user.photoURL ? { photo: m.user.photoURL } : {}) }));
}

const FRESH_MS = 60_000;
const loaded = new Map<string, { at: number; loading: Promise<MentionCandidate[]> }>();

/** Members first, then pages, per organization and space; a failed read is tried again next time. */
export function loadMentionCandidates(organizationId: string, spaceId: string): Promise<MentionCandidate[]> {
  const key = `${organizationId}/${spaceId}`;
  const kept = loaded.get(key);
  if (kept && Date.now() - kept.at < FRESH_MS) return kept.loading;
  const loading = Promise.all([
    allPages<OrganizationMember>(`/orgs/${encodeURIComponent(organizationId)}/members`),
    api<Revision>('GET', `/spaces/${encodeURIComponent(spaceId)}/content`),
  ]).then(
    ([members, revision]) => [...membersOf(members), ...pagesOf(revision.pages)],
    (error: unknown) => {
      loaded.delete(key);
      throw error;
    },
  );
  loaded.set(key, { at: Date.now(), loading });
  return loading;
}

/** The candidates a query finds, best first, at most `limit`: a query of nothing offers the first ones. */
export function findMentions(all: readonly MentionCandidate[], query: string, limit = 8): MentionCandidate[] {
  const matchable = all.map((candidate) => ({ candidate, title: candidate.label, keywords: candidate.detail, description: '' }));
  return rankMatches(matchable, query)
    .slice(0, limit)
    .map((m) => m.candidate);
}

/** GitBook's `mention` inline for a candidate. */
export function mentionInline(candidate: MentionCandidate) {
  const ref = candidate.kind === 'user' ? { kind: 'user', user: candidate.id } : { kind: 'page', page: candidate.id };
  return { object: 'inline', type: 'mention', isVoid: true, data: { ref } };
}

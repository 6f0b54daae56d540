/*
 * Who a comment mentions: `@Name` written in its text (a member's display name, or the part of their e-mail before
 * the @), or a link to a person (a `user` content reference, as GitBook's editor writes mentions). Pure: the
 * candidates are given.
 */

export interface MentionCandidate {
  userId: string;
  displayName: string | null;
  email: string | null;
}

/** The ids of the candidates the document mentions, each once, in the order of the candidates. */
export function mentionedUsers(document: unknown, candidates: readonly MentionCandidate[]): string[] {
  const { text, linked } = textAndUserLinks(document);
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const candidate of candidates) {
    const names = [candidate.displayName, candidate.email?.split('@')[0]].filter((n): n is string => !!n && n.trim().length > 0);
    const written = names.some((name) => mentions(lower, name.toLowerCase()));
    if (written || linked.has(candidate.userId)) found.push(candidate.userId);
  }
  return found;
}

/** `@name` followed by something that cannot continue a name (so @Ann does not mention Anna). */
function mentions(text: string, name: string): boolean {
  let at = text.indexOf(`@${name}`);
  while (at >= 0) {
    const next = text[at + name.length + 1];
    if (next === undefined || !/[\p{L}\p{N}_-]/u.test(next)) return true;
    at = text.indexOf(`@${name}`, at + 1);
  }
  return false;
}

/** The document's text and the users its links point to, read without recursion (documents may be deep). */
function textAndUserLinks(document: unknown): { text: string; linked: Set<string> } {
  const parts: string[] = [];
  const linked = new Set<string>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop() as { object?: string; leaves?: { text?: string }[]; nodes?: unknown[]; data?: { ref?: { kind?: string; user?: unknown } } } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.object === 'text') for (const leaf of node.leaves ?? []) parts.push(leaf.text ?? '');
    const ref = node.data?.ref;
    if (ref?.kind === 'user' && typeof ref.user === 'string') linked.add(ref.user);
    if (node.object === 'block') parts.push(' ');
    for (let i = (node.nodes ?? []).length - 1; i >= 0; i--) stack.push(node.nodes![i]);
  }
  return { text: parts.join(''), linked };
}

/** Whether a document could mention anyone: no member list is read for one without an @ or a person link. */
export function mayMention(document: unknown): boolean {
  const json = JSON.stringify(document);
  return json.includes('@') || json.includes('"kind":"user"');
}

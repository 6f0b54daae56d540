import type { CommentRange } from '../editor/contract.ts';
import type { Thread } from '../change-requests/comment-place.ts';

/*
 * Which words of the page each comment is on: a comment made with words selected quotes them at its start (the
 * new comment's text begins `> words`, change-requests/threads.tsx), and names their block. Read back from the
 * comment's markdown, so that comments made through the API or by GitBook's clients the same way are placed too.
 */

/** The words a comment's markdown quotes at its start, markdown's escapes undone; '' when it quotes nothing. */
export function quotedWords(markdown: string | undefined): string {
  const lines = (markdown ?? '').split('\n');
  const quoted: string[] = [];
  for (const line of lines) {
    const match = /^\s{0,3}>\s?(.*)$/.exec(line);
    if (!match) break;
    quoted.push(match[1]!);
  }
  return quoted
    .join(' ')
    .replace(/\\([\\`*_{}[\]()#+\-.!>|~<])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The open comments on words of a block, as the editor highlights them; `active` the one shown. */
export function commentRanges(threads: readonly Thread[], active: string | null): CommentRange[] {
  return threads.flatMap((thread) => {
    const node = thread.target.node?.id;
    const text = quotedWords(thread.body.markdown);
    if (!node || !text || thread.status === 'resolved') return [];
    return [{ id: thread.id, node, text, ...(thread.id === active ? { active: true } : {}) }];
  });
}

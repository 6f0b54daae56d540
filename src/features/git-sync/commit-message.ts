/*
 * The commit an automatic export makes, described from the changes it carries (newest first): one change is its
 * own subject; several are the newest one's subject with every change listed below it. Pure: auto-sync.ts reads
 * the revisions and their people.
 */

export type ExportedChange =
  | { kind: 'merge'; subject: string; number: number; author: Person | undefined }
  | { kind: 'edit'; author: Person | undefined };

export interface Person {
  name: string;
  email: string;
}

function lineOf(change: ExportedChange): string {
  if (change.kind === 'merge') return `${change.subject.trim() || 'Change request'} (#${change.number})`;
  return `Live edit by ${change.author?.name ?? 'Quire'}`;
}

export function exportCommitMessage(changes: readonly ExportedChange[]): string {
  const lines: string[] = [];
  for (const change of changes) {
    const line = lineOf(change);
    // A burst of live edits by one person is one line.
    if (lines.at(-1) !== line) lines.push(line);
  }
  if (lines.length === 0) return 'Update from Quire';
  if (lines.length === 1) return lines[0]!;
  return `${lines[0]}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`;
}

/** Whose change the commit is: the newest change's author, else Quire's. */
export function exportCommitAuthor(changes: readonly ExportedChange[], quire: Person): Person {
  return changes.find((c) => c.author)?.author ?? quire;
}

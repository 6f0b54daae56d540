/*
 * A content conflict as the merge reports it: the page's merged markdown with each region both sides changed
 * between git-style markers (src/features/change-requests/merge-text.ts writes them: ours, base, theirs). A
 * person picks a side or writes the region, and the page's markdown is the pieces joined again.
 */

export interface ConflictRegion {
  ours: string;
  base: string;
  theirs: string;
  oursLabel: string;
  theirsLabel: string;
}

export type ConflictPiece = string | ConflictRegion;

export function parseMarkedText(markedText: string): ConflictPiece[] {
  const pieces: ConflictPiece[] = [];
  const lines = markedText.split(/(?<=\n)/);
  let plain = '';
  let region: (ConflictRegion & { part: 'ours' | 'base' | 'theirs' }) | null = null;
  for (const line of lines) {
    if (!region && line.startsWith('<<<<<<< ')) {
      if (plain) pieces.push(plain);
      plain = '';
      region = { ours: '', base: '', theirs: '', oursLabel: line.slice(8).trim(), theirsLabel: '', part: 'ours' };
    } else if (region && line.startsWith('||||||| ')) region.part = 'base';
    else if (region && line === '=======\n') region.part = 'theirs';
    else if (region && line.startsWith('>>>>>>> ')) {
      const { part: _part, ...done } = region;
      pieces.push({ ...done, theirsLabel: line.slice(8).trim() });
      region = null;
    } else if (region) region[region.part] += line;
    else plain += line;
  }
  if (plain) pieces.push(plain);
  return pieces;
}

/** The page's markdown once every region has its resolution (by index among the regions). */
export function resolveMarkedText(pieces: readonly ConflictPiece[], resolutions: readonly string[]): string {
  let index = 0;
  return pieces.map((piece) => (typeof piece === 'string' ? piece : withNewline(resolutions[index++] ?? ''))).join('');
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

export const regionsOf = (pieces: readonly ConflictPiece[]): ConflictRegion[] => pieces.filter((p): p is ConflictRegion => typeof p !== 'string');

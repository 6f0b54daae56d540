import { diff3Merge, diffIndices } from 'node-diff3';

/** What each side is called in the conflict markers. */
export interface TextMergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

/** One place where both sides changed the same text differently. */
export interface TextConflictRegion {
  base: string;
  ours: string;
  theirs: string;
}

export type TextMerge =
  | { conflict: false; text: string }
  | {
      conflict: true;
      /** The text with every unresolved region written between git-style markers (ours, base, theirs). */
      markedText: string;
      regions: TextConflictRegion[];
    };

const DEFAULT_TEXT_LABELS: TextMergeLabels = { ours: 'main', base: 'base', theirs: 'change request' };

/**
 * Three-way merge of two edits of a text (the markdown form of a page's document).
 *
 * Edits that touch different parts both survive; edits that overlap are a conflict. The text is compared in
 * three passes, each only where the one before found a conflict:
 * - blocks (a paragraph, list or table with the blank lines after it): a markdown document repeats blank lines
 *   everywhere, and the LCS of node-diff3 slows down quadratically with repeated items, so the whole text is
 *   aligned on nearly unique blocks first;
 * - lines: two edits of one list or table, on different lines, both survive. Unlike git, edits of lines that
 *   are next to each other but do not overlap both survive too (a paragraph deleted, the next one edited):
 *   which line a blank separator belongs to is arbitrary in markdown, and should not make a conflict;
 * - words: two edits of one paragraph (one line of markdown) in different sentences both survive. Here edits
 *   must be a word apart, and a word-level result is only taken when it resolves the region completely, so
 *   conflict markers always wrap whole lines.
 */
export function mergeText(base: string, ours: string, theirs: string, labels: Partial<TextMergeLabels> = {}): TextMerge {
  if (ours === theirs || theirs === base) return { conflict: false, text: ours };
  if (ours === base) return { conflict: false, text: theirs };
  const chunks = mergeAt(0, base, ours, theirs);
  const regions = chunks.filter((c): c is TextConflictRegion => typeof c !== 'string');
  if (regions.length === 0) return { conflict: false, text: (chunks as string[]).join('') };
  const names = { ...DEFAULT_TEXT_LABELS, ...labels };
  const markedText = chunks
    .map((c) =>
      typeof c === 'string'
        ? c
        : `<<<<<<< ${names.ours}\n${line(c.ours)}||||||| ${names.base}\n${line(c.base)}=======\n${line(c.theirs)}>>>>>>> ${names.theirs}\n`,
    )
    .join('');
  return { conflict: true, markedText, regions };
}

/** A merged stretch of text, or a region left in conflict. */
type Chunk = string | TextConflictRegion;

/** Each level cuts a text into pieces whose concatenation is exactly the text. */
const LEVELS: ReadonlyArray<(text: string) => string[]> = [blocks, lines, words];
const WORD_LEVEL = 2;
/** Beyond this many words a region is left in conflict rather than aligned word by word (the LCS is quadratic). */
const MAX_WORDS = 5_000;

function mergeAt(level: number, base: string, ours: string, theirs: string): Chunk[] {
  const split = LEVELS[level]!;
  const a = split(ours);
  const o = split(base);
  const b = split(theirs);
  // Pieces the three texts share at both ends are not diffed: most edits are small, and LCS cost grows with length.
  let head = 0;
  while (head < a.length && head < o.length && head < b.length && a[head] === o[head] && b[head] === o[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < o.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === o[o.length - 1 - tail] &&
    b[b.length - 1 - tail] === o[o.length - 1 - tail]
  )
    tail++;
  const out: Chunk[] = [o.slice(0, head).join('')];
  const middle = diff3Merge(a.slice(head, a.length - tail), o.slice(head, o.length - tail), b.slice(head, b.length - tail), {
    excludeFalseConflicts: true,
  });
  for (const region of middle) {
    if (region.ok) {
      out.push(region.ok.join(''));
      continue;
    }
    const conflict = region.conflict!;
    const side = { base: conflict.o.join(''), ours: conflict.a.join(''), theirs: conflict.b.join('') };
    out.push(...refine(level + 1, side));
  }
  out.push(o.slice(o.length - tail).join(''));
  return out.filter((c) => c !== '');
}

/** A conflicting region, merged again with finer pieces where that helps. */
function refine(level: number, region: TextConflictRegion): Chunk[] {
  if (level >= LEVELS.length) return [region];
  if (level === WORD_LEVEL) {
    // The region is whole lines that diff3 found in conflict: first, are they only next to each other?
    const [o, a, b] = [region.base, region.ours, region.theirs].map(lines) as [string[], string[], string[]];
    const adjacent = mergeAdjacent(o, a, b);
    if (adjacent !== undefined) return [adjacent];
    const size = Math.max(...[region.base, region.ours, region.theirs].map((t) => countWords(t)));
    if (size > MAX_WORDS) return [region];
    const finer = mergeAt(level, region.base, region.ours, region.theirs);
    return finer.every((c) => typeof c === 'string') ? [finer.join('')] : [region];
  }
  return mergeAt(level, region.base, region.ours, region.theirs);
}

/**
 * Both sides' edits applied to the base when no two of them overlap, even if they touch: `undefined` when two
 * edits replace a common piece, or insert at the same point (their order would be a guess), or one inserts
 * inside a piece the other replaces.
 */
function mergeAdjacent(o: string[], a: string[], b: string[]): string | undefined {
  const edits: Edit[] = [...diffIndices(o, a), ...diffIndices(o, b)]
    .map((d) => ({ start: d.buffer1[0], end: d.buffer1[0] + d.buffer1[1], content: d.buffer2Content }))
    .sort((x, y) => x.start - y.start || x.end - y.end)
    // The same edit made on both sides is made once.
    .filter((edit, i, all) => i === 0 || !sameEdit(edit, all[i - 1]!));
  for (let i = 1; i < edits.length; i++) {
    const [previous, next] = [edits[i - 1]!, edits[i]!];
    const bothInsert = previous.start === previous.end && next.start === next.end && previous.start === next.start;
    if (next.start < previous.end || bothInsert) return undefined;
  }
  const out: string[] = [];
  let at = 0;
  for (const edit of edits) {
    out.push(...o.slice(at, edit.start), ...edit.content);
    at = edit.end;
  }
  out.push(...o.slice(at));
  return out.join('');
}

interface Edit {
  start: number;
  end: number;
  content: string[];
}

function sameEdit(x: Edit, y: Edit): boolean {
  return x.start === y.start && x.end === y.end && x.content.length === y.content.length && x.content.every((piece, i) => piece === y.content[i]);
}

/** Lines with their line breaks. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Runs of non-blank lines, each with the blank lines that follow it (leading blank lines form their own piece). */
function blocks(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let inGap = false;
  for (const l of lines(text)) {
    const blank = l.trim() === '';
    if (!blank && inGap) {
      out.push(current);
      current = '';
    }
    inGap = blank;
    current += l;
  }
  if (current) out.push(current);
  return out;
}

/** Words with the white space after them (leading white space forms its own piece). */
function words(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}

function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** A side of a conflict between markers ends with a line break so the next marker starts a line. */
function line(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

import { codeLines, indentedBlock, outsideCodeSpans } from './source-markdown.ts';

/*
 * Material's annotations: a block marked `annotate` (`{ .annotate }` under a paragraph, `!!! note annotate`,
 * `<div class="annotate" markdown>`) holds markers `(1)`, `(2)`, and the ordered list right after the block holds
 * the notes, the n-th item the note of `(n)`. Shown as a marker that opens its note, they are GitBook's
 * annotations, which GitBook writes as footnotes: a marker `[^label]` where `(n)` was, the note its definition.
 */

const ITEM = /^\d{1,9}[.)][ \t]+(\S.*)$/;

/** The notes of the ordered list that starts at the first non-blank line from `from` (each its lines, dedented), and the line after it. */
export function annotationList(lines: readonly string[], from: number): { notes: string[][]; next: number } | undefined {
  const notes: string[][] = [];
  let at = from;
  for (;;) {
    let first = at;
    while (first < lines.length && lines[first]!.trim() === '') first++;
    const item = ITEM.exec(lines[first] ?? '');
    if (!item) break;
    const { lines: inner, next } = indentedBlock(lines, first + 1);
    notes.push([item[1]!, ...inner]);
    at = next;
  }
  return notes.length > 0 ? { notes, next: at } : undefined;
}

/**
 * The block with its markers `(n)` for n within the notes made footnote references (`label(n)`), outside code;
 * undefined when the block holds none, or a marker the list has no note for (then it is not this construct).
 */
export function markAnnotations(block: readonly string[], count: number, label: (n: number) => string): string[] | undefined {
  let marked = 0;
  let unmatched = false;
  const code = codeLines(block);
  const out = block.map((line, at) => {
    if (code[at]) return line;
    return outsideCodeSpans(line, (prose) =>
      prose.replace(/(^|[\s>"*_])\((\d{1,3})\)(?=$|[\s.,;:!?*_"<])/g, (whole, before: string, n: string) => {
        if (Number(n) < 1 || Number(n) > count) {
          unmatched = true;
          return whole;
        }
        marked++;
        return `${before}[^${label(Number(n))}]`;
      }),
    );
  });
  return marked > 0 && !unmatched ? out : undefined;
}

/** A footnote's definition of the note's lines: its first line after the label, the others indented under it. */
export function footnoteDefinition(label: string, note: readonly string[]): string[] {
  const [first = '', ...rest] = note;
  return [`[^${label}]: ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `    ${line}`)), ''];
}

/*
 * Whether pasted plain text is markdown worth reading as blocks (a GitBook page's source, a README) rather
 * than text to paste as typed. Only block structure counts: a sentence with `*stars*` or a URL stays text,
 * and so does text pasted with HTML that has block elements (the HTML describes it better, and TipTap reads it).
 */

const BLOCK_LINES = [
  /^#{1,6}\s+\S/, // heading
  /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+\S/, // list item
  /^\s{0,3}(?:```|~~~)/, // fenced code
  /^\s{0,3}>\s?\S/, // quote
  /^\s*\{%\s*[a-z-]+/, // GitBook's liquid tags: hint, tabs, code, embed, content-ref…
  /^\s*\|.*\|\s*$/, // table row
  /^\s{0,3}(?:-{3,}|\*{3,}|_{3,})\s*$/, // thematic break
];

/** Text whose lines include markdown block syntax. */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length === 0 || text.length > 2_000_000) return false;
  const lines = text.split(/\r?\n/);
  const structured = lines.filter((line) => BLOCK_LINES.some((pattern) => pattern.test(line))).length;
  // One line of `- x` or `# x` is markdown; in longer text a lone `---` or `> ` may be prose, so ask for two.
  if (lines.filter((line) => line.trim()).length <= 1) return structured === 1;
  return structured >= 2 || lines.some((line) => /^\s*(?:```|~~~|\{%\s*[a-z-]+|#{1,6}\s+\S)/.test(line));
}

const BLOCK_HTML = /<(?:p|h[1-6]|ul|ol|li|table|blockquote|pre|figure|img)[\s>]/i;

/** HTML on the clipboard that describes blocks itself; code editors put their text as spans in divs. */
export function htmlHasBlocks(html: string): boolean {
  return BLOCK_HTML.test(html);
}

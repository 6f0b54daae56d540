/*
 * GitBook's Git Sync markdown wraps blocks in Liquid-style tags on lines of their own:
 *   {% hint style="info" %} … {% endhint %}, {% tabs %}{% tab title="A" %} … {% endtab %}{% endtabs %},
 *   {% code title="a.js" %} ```…``` {% endcode %}, {% embed url="…" %}, {% file src="…" %}, {% content-ref url="…" %}.
 * markdown-parser.ts turns such a line into a `gitbook_tag` token (only for the tag names below, so any other
 * `{% … %}` stays plain text); to-document.ts pairs openers with closers.
 */

export const TAG_NAMES = [
  'hint', 'endhint', 'tabs', 'endtabs', 'tab', 'endtab', 'code', 'endcode', 'embed', 'file', 'endfile',
  'content-ref', 'endcontent-ref',
] as const;
export type TagName = (typeof TAG_NAMES)[number];
export interface TagLine { name: TagName; attributes: Record<string, string> }

// Lines longer than this are never tags.
const MAX_TAG_LINE = 4096;
const ATTRIBUTE = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')/y;

/** Reads one tag line (`{% name key="value" … %}`); null when it is not one of ours. */
export function parseTagLine(line: string): TagLine | null {
  const text = line.trim();
  if (text.length > MAX_TAG_LINE || !text.startsWith('{%') || !text.endsWith('%}')) return null;
  const inner = text.slice(2, -2).trim();
  const nameMatch = /^[a-z][a-z-]*/.exec(inner);
  const name = nameMatch?.[0];
  if (!name || !(TAG_NAMES as readonly string[]).includes(name)) return null;
  const attributes: Record<string, string> = {};
  let position = name.length;
  while (position < inner.length) {
    const space = /\s+/y;
    space.lastIndex = position;
    if (!space.exec(inner)) return null;
    position = space.lastIndex;
    ATTRIBUTE.lastIndex = position;
    const match = ATTRIBUTE.exec(inner);
    if (!match || !match[1]) return null;
    attributes[match[1]] = (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1');
    position = ATTRIBUTE.lastIndex;
  }
  return { name: name as TagName, attributes };
}

/** Writes a tag line; values are double-quoted with `\` escapes, and kept on one line. */
export function formatTag(name: TagName, attributes: Record<string, string | undefined> = {}): string {
  const parts: string[] = [name];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    parts.push(`${key}="${value.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, '\\$&')}"`);
  }
  return `{% ${parts.join(' ')} %}`;
}

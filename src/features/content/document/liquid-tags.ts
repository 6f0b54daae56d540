/*
 * GitBook's Git Sync markdown wraps blocks in Liquid-style tags on lines of their own:
 *   {% hint style="info" %} … {% endhint %}, {% tabs %}{% tab title="A" %} … {% endtab %}{% endtabs %},
 *   {% code title="a.js" %} ```…``` {% endcode %}, {% embed url="…" %}, {% file src="…" %}, {% content-ref url="…" %}.
 * markdown-parser.ts turns such a line into a `gitbook_tag` token (only for the tag names below, so any other
 * `{% … %}` stays plain text); to-document.ts pairs openers with closers.
 */

export const TAG_NAMES = [
  'hint', 'endhint', 'tabs', 'endtabs', 'tab', 'endtab', 'code', 'endcode', 'embed', 'endembed', 'file', 'endfile',
  'content-ref', 'endcontent-ref', 'stepper', 'endstepper', 'step', 'endstep', 'columns', 'endcolumns', 'column',
  'endcolumn', 'if', 'endif', 'updates', 'endupdates', 'update', 'endupdate', 'prompt', 'endprompt', 'openapi',
  'endopenapi', 'openapi-operation', 'endopenapi-operation', 'openapi-schemas', 'endopenapi-schemas',
  'openapi-webhook', 'endopenapi-webhook', 'include',
] as const;
export type TagName = (typeof TAG_NAMES)[number];
/**
 * A tag line. `argument` is what follows the name of the two tags that take no `key="value"` attributes:
 * `{% if <expression> %}` and `{% include "<path>" %}` (the path unquoted).
 */
export interface TagLine { name: TagName; attributes: Record<string, string>; argument?: string }

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
  if (name === 'if') {
    const expression = inner.slice(name.length).trim();
    return expression && /^\s/.test(inner.slice(name.length)) ? { name, attributes: {}, argument: expression } : null;
  }
  if (name === 'include') {
    const path = /^include\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')$/.exec(inner);
    return path ? { name, attributes: {}, argument: (path[1] ?? path[2] ?? '').replace(/\\(.)/g, '$1') } : null;
  }
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
export function formatTag(name: TagName, attributes: Record<string, string | undefined> = {}, argument?: string): string {
  const parts: string[] = [name];
  if (argument !== undefined) {
    const value = argument.replace(/[\r\n]+/g, ' ');
    parts.push(name === 'include' ? `"${value.replace(/["\\]/g, '\\$&')}"` : value.replace(/%}/g, '% }'));
  }
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    parts.push(`${key}="${value.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, '\\$&')}"`);
  }
  return `{% ${parts.join(' ')} %}`;
}

/** The text of the link GitBook writes inside `{% content-ref %}` for other renderers: the URL's last segment. */
export function contentRefLabel(url: string): string {
  return url.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() || url;
}

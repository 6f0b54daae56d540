/*
 * HTML from the clipboard made plain before it is read as blocks (html-blocks.ts): what Google Docs, Word and web
 * pages put there describes looks (spans with font weights, paragraphs with list markers typed in) more than
 * structure. This works on a DOM (the browser's DOMParser; jsdom in the tests) and changes it in place:
 * - Google Docs: the `<b id="docs-internal-guid-…">` wrapper that is not bold goes; a span's weight, style,
 *   strike, position and monospace font become strong, em, s, sup/sub and code; a list nested directly in a list
 *   goes into the item before it; a checklist item becomes a task (`[x]`).
 * - Word: paragraphs with `mso-list` (their bullet or number typed in a span Word marks `mso-list:Ignore`)
 *   become list items, nested by their level; Office's own elements (`o:p`) and conditional comments go.
 * - Tables: one header row (the first, when none is marked), one line of text per cell, no attributes, so that
 *   they read as GitBook's tables.
 */

const NOT_CONTENT = 'meta, style, script, title, link, template, noscript, xml, colgroup, col';
const BLOCKS = new Set(['P', 'DIV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI', 'TABLE', 'BLOCKQUOTE', 'PRE', 'FIGURE', 'HR', 'SECTION', 'ARTICLE']);
const MONOSPACE = /courier|consolas|monaco|menlo|monospace|roboto mono|source code|fira code|jetbrains/i;

/** Keeps an element's children where it is, without it. */
function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

/** Wraps an element's children in a new element named `tag`, inside it. */
function wrapChildren(element: Element, tag: string): void {
  const wrapper = element.ownerDocument.createElement(tag);
  wrapper.append(...element.childNodes);
  element.append(wrapper);
}

function removeComments(root: Node): void {
  const walker = root.ownerDocument!.createTreeWalker(root, 128 /* NodeFilter.SHOW_COMMENT */);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

/** Google Docs' and Office's styled spans as the marks they stand for. */
function spansToMarks(root: Element): void {
  for (const bold of root.querySelectorAll('b, strong')) {
    // Google Docs wraps the whole paste in a <b> that is not bold.
    if (/font-weight:\s*(normal|[1-4]00)\b/i.test(bold.getAttribute('style') ?? '') || bold.id.startsWith('docs-internal-guid')) unwrap(bold);
  }
  for (const span of root.querySelectorAll('span[style]')) {
    const style = span.getAttribute('style') ?? '';
    if (/font-family:[^;]*/i.test(style) && MONOSPACE.test(/font-family:([^;]*)/i.exec(style)![1]!)) wrapChildren(span, 'code');
    if (/font-weight:\s*(bold|[6-9]00)\b/i.test(style)) wrapChildren(span, 'strong');
    if (/font-style:\s*italic/i.test(style)) wrapChildren(span, 'em');
    if (/text-decoration[^;:]*:[^;]*line-through/i.test(style)) wrapChildren(span, 's');
    if (/vertical-align:\s*super/i.test(style)) wrapChildren(span, 'sup');
    else if (/vertical-align:\s*sub\b/i.test(style)) wrapChildren(span, 'sub');
  }
}

/** The list level and marker of a Word list paragraph, or null for any other paragraph. */
function wordListItem(p: Element): { level: number; ordered: boolean } | null {
  const style = p.getAttribute('style') ?? '';
  const list = /mso-list:\s*l\d+\s+level(\d+)/i.exec(style);
  if (!list && !/^MsoListParagraph/i.test(p.getAttribute('class') ?? '')) return null;
  const marker = [...p.querySelectorAll('span')].find((s) => /mso-list:\s*Ignore/i.test(s.getAttribute('style') ?? ''))?.textContent?.trim() ?? '';
  return { level: list ? Number(list[1]) : 1, ordered: /^[\da-z]{1,4}[.)]$/i.test(marker) };
}

/** Word's list paragraphs, in runs, as nested lists; their typed markers dropped. */
function wordLists(root: Element): void {
  const doc = root.ownerDocument;
  for (const first of [...root.querySelectorAll('p')]) {
    if (!first.isConnected || !wordListItem(first) || (first.previousElementSibling && wordListItem(first.previousElementSibling))) continue;
    // A run of list paragraphs, from the first one.
    const run: { p: Element; level: number; ordered: boolean }[] = [];
    for (let p: Element | null = first; p && p.tagName === 'P'; p = p.nextElementSibling) {
      const item = wordListItem(p);
      if (!item) break;
      run.push({ p, ...item });
    }
    const stack: { level: number; list: Element }[] = [];
    const top = doc.createElement(run[0]!.ordered ? 'ol' : 'ul');
    first.before(top);
    stack.push({ level: run[0]!.level, list: top });
    for (const { p, level, ordered } of run) {
      while (stack.length > 1 && level < stack.at(-1)!.level) stack.pop();
      if (level > stack.at(-1)!.level) {
        const nested = doc.createElement(ordered ? 'ol' : 'ul');
        const parentItem = stack.at(-1)!.list.lastElementChild ?? stack.at(-1)!.list.appendChild(doc.createElement('li'));
        parentItem.append(nested);
        stack.push({ level, list: nested });
      }
      const li = doc.createElement('li');
      for (const marker of p.querySelectorAll('span')) if (/mso-list:\s*Ignore/i.test(marker.getAttribute('style') ?? '')) marker.remove();
      li.append(...p.childNodes);
      stack.at(-1)!.list.append(li);
      p.remove();
    }
  }
  for (const office of root.querySelectorAll('*')) if (office.tagName.includes(':')) unwrap(office);
}

/** Lists as HTML nests them: a list directly in a list goes into the item before it; checklist items become tasks. */
function lists(root: Element): void {
  for (const nested of [...root.querySelectorAll('ul > ul, ul > ol, ol > ul, ol > ol')]) {
    const before = nested.previousElementSibling;
    if (before?.tagName === 'LI') before.append(nested);
    else {
      const li = root.ownerDocument.createElement('li');
      nested.replaceWith(li);
      li.append(nested);
    }
  }
  // An item's one paragraph is its text (Google Docs puts each item's in a <p>): no blank line inside the item.
  for (const item of root.querySelectorAll('li')) {
    const paragraphs = [...item.children].filter((c) => c.tagName === 'P');
    if (paragraphs.length === 1) unwrap(paragraphs[0]!);
  }
  for (const item of root.querySelectorAll('li[role="checkbox"]')) {
    const box = root.ownerDocument.createElement('input');
    box.setAttribute('type', 'checkbox');
    if (item.getAttribute('aria-checked') === 'true') box.setAttribute('checked', '');
    // Google Docs draws the box as an image.
    item.querySelector(':scope > img')?.remove();
    item.prepend(box);
  }
}

/** A cell's content on one line: its paragraphs joined by a space, its inline marks kept. */
function cellInline(cell: Element): void {
  for (const br of cell.querySelectorAll('br')) br.replaceWith(' ');
  for (const block of [...cell.querySelectorAll('*')].reverse()) {
    if (!BLOCKS.has(block.tagName)) continue;
    block.before(' ');
    unwrap(block);
  }
}

/** Every table as GitBook's plain tables: a header row, then the rows; no attribute, one line per cell. */
function tables(root: Element): void {
  const doc = root.ownerDocument;
  for (const table of [...root.querySelectorAll('table')].reverse()) {
    const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
    if (rows.length === 0) {
      table.remove();
      continue;
    }
    const clean = doc.createElement('table');
    const head = clean.appendChild(doc.createElement('thead'));
    const body = clean.appendChild(doc.createElement('tbody'));
    rows.forEach((tr, index) => {
      const row = (index === 0 ? head : body).appendChild(doc.createElement('tr'));
      for (const cell of [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH')) {
        cellInline(cell);
        const out = row.appendChild(doc.createElement(index === 0 ? 'th' : 'td'));
        out.append(...cell.childNodes);
      }
    });
    table.replaceWith(clean);
  }
}

/** Line breaks between blocks (Google Docs puts one between paragraphs) are not content. */
function strayBreaks(root: Element): void {
  for (const br of [...root.querySelectorAll('br')]) {
    const parent = br.parentElement;
    if (parent && (parent === root || parent.tagName === 'DIV' || parent.tagName === 'BODY') && !br.closest('td, th, li, p')) br.remove();
  }
}

/** Cleans the pasted HTML's body in place (see the module's comment); returns it. */
export function cleanClipboardHtml(doc: Document): HTMLElement {
  const root = doc.body;
  removeComments(root);
  for (const element of root.querySelectorAll(NOT_CONTENT)) element.remove();
  spansToMarks(root);
  wordLists(root);
  lists(root);
  tables(root);
  strayBreaks(root);
  return root;
}

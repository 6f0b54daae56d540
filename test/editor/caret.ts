import type { Locator } from 'playwright-core';

/*
 * Where the caret is in an editor's paragraph: outside it, inside it, or at its end. Others' carets drawn inside
 * the paragraph while editing together (a name label) are not text of it.
 */
export function caretIn(paragraph: Locator): Promise<'outside' | 'inside' | 'end'> {
  return paragraph.evaluate((p) => {
    const selection = getSelection();
    if (!selection?.focusNode || !selection.isCollapsed || !p.contains(selection.focusNode)) return 'outside';
    const rest = document.createRange();
    rest.setStart(selection.focusNode, selection.focusOffset);
    rest.setEndAfter(p.lastChild ?? p);
    const after = rest.cloneContents();
    for (const caret of after.querySelectorAll('.collaboration-carets__caret')) caret.remove();
    return after.textContent === '' ? 'end' : 'inside';
  });
}

import { createContentComponent, type Editor } from '@tiptap/react';

/** What @tiptap/react keeps on an editor (its `EditorWithContentComponent`, which it does not export). */
type WithContent = Editor & { contentComponent?: ReturnType<typeof createContentComponent> | null; isEditorContentInitialized?: boolean };

/*
 * The editor drawn once as it opens. TipTap's EditorContent draws React node views through a "content component"
 * it makes only once the editor is built and mounted: it then sets the view's node views anew, and ProseMirror,
 * seeing other node views, destroys and draws the whole page a second time (a tenth of opening a long page).
 * Given the content component before the view is built (`beforeCreate`), the node views draw into it from the
 * start; EditorContent then finds it and leaves the view as it is, so its element is filled here instead, as
 * EditorContent would (its ref, before its own mount).
 */

/** For `onBeforeCreate`: the content component the node views draw into, before the view exists. */
export function drawNodeViewsFromTheStart(editor: WithContent): void {
  editor.contentComponent ??= createContentComponent();
}

/** For EditorContent's `ref`: the view's page moved into its element, as EditorContent does on its mount. */
export function contentElementOf(editor: WithContent | null): (element: HTMLDivElement | null) => void {
  return (element) => {
    if (!element || !editor || editor.isDestroyed || editor.isEditorContentInitialized) return;
    const built = editor.view.dom.parentNode;
    if (!built || built === element) return;
    element.append(...built.childNodes);
    editor.setOptions({ element });
    editor.isEditorContentInitialized = true;
  };
}

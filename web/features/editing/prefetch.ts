import type { Document } from '../../../src/features/content/document/types.ts';

/*
 * The editing screen's code and the block editor's chunk, loaded ahead of a click on "Edit": when the app is idle
 * on a page the person may edit, or when the pointer or the focus reaches the button. Opening the editor then
 * waits for neither (issue 42: the chunks were the first two steps of a serial waterfall). The modules are the
 * very ones the router's lazy route and the editing screen import, so the browser fetches each once. Once they are
 * loaded and the browser is idle again, the shown page's editor is warmed up (editor/warm-up.ts).
 */

let loading: Promise<unknown> | undefined;

export function prefetchEditing(): void {
  loading ??= Promise.all([import('./editing-screen.tsx'), import('./body-editor.tsx').then((module) => module.preloadBlockEditor())]).catch(() => {
    // Offline, say: the next approach tries again.
    loading = undefined;
  });
}

/** `work` once the browser has nothing else to do (a task later where there is no idle callback). */
function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(work, 200);
  return () => window.clearTimeout(handle);
}

/** prefetchEditing once the browser is idle. */
export function prefetchEditingWhenIdle(): () => void {
  return whenIdle(prefetchEditing);
}

/** The editor of the shown page built ahead, off the page, once the browser is idle and the editor's code loaded. */
export function warmUpEditingWhenIdle(document: Document, spaceId: string): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const cancelFirst = whenIdle(() => {
    prefetchEditing();
    void import('./body-editor.tsx')
      .then(async (module) => {
        await module.blockEditorLoaded();
        if (!cancelled) cancelIdle = whenIdle(() => void module.warmUpBlockEditor(document, spaceId));
      })
      .catch(() => undefined);
  });
  return () => {
    cancelled = true;
    cancelFirst();
    cancelIdle();
  };
}

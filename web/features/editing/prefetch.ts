/*
 * The editing screen's code and the block editor's chunk, loaded ahead of a click on "Edit": when the app is idle
 * on a page the person may edit, or when the pointer or the focus reaches the button. Opening the editor then
 * waits for neither (issue 42: the chunks were the first two steps of a serial waterfall). The modules are the
 * very ones the router's lazy route and the editing screen import, so the browser fetches each once.
 */

let loading: Promise<unknown> | undefined;

export function prefetchEditing(): void {
  loading ??= Promise.all([import('./editing-screen.tsx'), import('./body-editor.tsx').then((module) => module.preloadBlockEditor())]).catch(() => {
    // Offline, say: the next approach tries again.
    loading = undefined;
  });
}

/** prefetchEditing once the browser has nothing else to do (a task later where there is no idle callback). */
export function prefetchEditingWhenIdle(): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(prefetchEditing, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(prefetchEditing, 200);
  return () => window.clearTimeout(handle);
}

import type { EditorPresence } from './autosave.ts';

/**
 * Editors' presence across this browser's tabs with the Web Locks API: an open editor holds a lock named after it,
 * and the browser lets it go when the editor is disposed or its tab closes or crashes — another tab asking for the
 * same lock is granted it then, and knows that editor is gone. Null where the browser has no locks (the kept
 * copy marked `closed` is then all there is).
 */
export function lockPresence(): EditorPresence | null {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return null;
  const name = (tab: string) => `quire:editor:${tab}`;
  return {
    hold(tab) {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      void locks.request(name(tab), () => held).catch(() => undefined);
      return release;
    },
    whenGone(tab, callback) {
      const controller = new AbortController();
      // Granted once the editor holding it lets go; released again as soon as the callback returns.
      locks.request(name(tab), { signal: controller.signal }, () => callback()).catch(() => undefined);
      return () => controller.abort();
    },
  };
}

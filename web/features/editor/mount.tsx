import { createRoot } from 'react-dom/client';
import type { PageEditorProps } from './contract.ts';
import PageEditor from './page-editor.tsx';

/**
 * Mounts the editor on any element, outside the app's router: the browser tests and the bench import this
 * module from the built chunk (dist/web/.vite/manifest.json, `features/editor/mount.tsx`) to use the real
 * built editor on a blank page. Returns a function that unmounts it.
 */
export function mountPageEditor(element: HTMLElement, props: PageEditorProps): () => void {
  const root = createRoot(element);
  root.render(<PageEditor {...props} />);
  return () => root.unmount();
}

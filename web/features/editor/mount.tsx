import { createRoot } from 'react-dom/client';
import type { PageEditorProps } from './contract.ts';
import PageEditor from './page-editor.tsx';
import { TooltipProvider } from '../../ui/tooltip.tsx';

/**
 * Mounts the editor on any element, outside the app's router: the browser tests and the bench import this
 * module from the built chunk (dist/web/.vite/manifest.json, `features/editor/mount.tsx`) to use the real
 * built editor on a blank page. Returns a function that unmounts it.
 */
export function mountPageEditor(element: HTMLElement, props: PageEditorProps): () => void {
  const root = createRoot(element);
  // The app's root gives the kit's tooltips their provider (main.tsx); mounted alone, the editor gives its own.
  root.render(
    <TooltipProvider>
      <PageEditor {...props} />
    </TooltipProvider>,
  );
  return () => root.unmount();
}

import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { PageEditorProps } from '../editor/contract.ts';
import type { Document } from '../../../src/features/content/document/types.ts';
import type { AppLinks } from '../pages/links.ts';
import { DocumentView } from '../pages/render-document.tsx';
import { Skeleton } from '../../ui/states.tsx';

/*
 * The block editor is its own chunk, loaded when a person starts editing. It is looked up with Vite's glob so
 * that a build without it (the editor is built beside this screen) still builds: the page body is then shown
 * read-only, and the page's header and tree stay editable.
 */
const modules = import.meta.glob<{ default: ComponentType<PageEditorProps>; warmUpEditor(document: Document, spaceId: string): void }>('../editor/page-editor.tsx');
const loadModule = modules['../editor/page-editor.tsx'];
let loading: ReturnType<NonNullable<typeof loadModule>> | undefined;
/** The editor's component once its chunk has loaded (fetched ahead, as the page view does when idle). */
let Loaded: ComponentType<PageEditorProps> | undefined;
// One load for the preload and the lazy component; a failed one (offline) is tried again next time.
const load = loadModule
  ? () =>
      (loading ??= loadModule().then(
        (module) => {
          Loaded = module.default;
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      ))
  : undefined;
const PageEditor = load ? lazy(load) : null;

export const HAS_BLOCK_EDITOR = PageEditor !== null;

/**
 * Starts loading the editor's chunk before it is shown: while the page connects to its shared document, so that
 * a connection lost meanwhile does not also lose the editor.
 */
export function preloadBlockEditor(): void {
  load?.().catch(() => undefined);
}

/** Resolves once the editor's chunk is loaded (rejects when it cannot be). */
export async function blockEditorLoaded(): Promise<void> {
  await load?.();
}

/** Once the editor's chunk is loaded: the page's first editor built and its document converted ahead (editor/warm-up.ts). */
export async function warmUpBlockEditor(document: Document, spaceId: string): Promise<void> {
  const module = await load?.();
  module?.warmUpEditor(document, spaceId);
}

export function BodyEditor(props: PageEditorProps & { links: AppLinks }) {
  const { links, ...editor } = props;
  const [Direct] = useState(() => Loaded);
  if (!PageEditor) {
    return (
      <>
        <p className="editor-missing" role="note">
          This build has no block editor: the page’s body is shown as it is, and its title, description, emoji, cover and place in the tree can be edited.
        </p>
        <DocumentView document={editor.document as Document} links={links} />
      </>
    );
  }
  // Loaded ahead (the usual case): drawn in this very render. Through lazy() it would suspend even so (for a
  // microtask: lazy() learns of the chunk only when first rendered), commit the skeleton and render again. Chosen
  // once per body: switching from the lazy component to the loaded one would mount the editor anew.
  if (Direct) return <Direct {...editor} />;
  return (
    <Suspense fallback={<Skeleton lines={8} label="Loading the editor" />}>
      <PageEditor {...editor} />
    </Suspense>
  );
}

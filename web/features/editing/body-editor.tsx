import { lazy, Suspense, type ComponentType } from 'react';
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
const modules = import.meta.glob<{ default: ComponentType<PageEditorProps> }>('../editor/page-editor.tsx');
const load = modules['../editor/page-editor.tsx'];
const PageEditor = load ? lazy(load) : null;

export const HAS_BLOCK_EDITOR = PageEditor !== null;

export function BodyEditor(props: PageEditorProps & { links: AppLinks }) {
  const { links, ...editor } = props;
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
  return (
    <Suspense fallback={<Skeleton lines={8} label="Loading the editor" />}>
      <PageEditor {...editor} />
    </Suspense>
  );
}

import type { Document } from '../../../src/features/content/document/types.ts';

/*
 * What the page editor (page-editor.tsx, loaded lazily when a person starts editing) takes from the screen
 * that hosts it (features/editing). The editor knows nothing of where edits go: it reports each change as a
 * whole document of our model, and the host decides when and where to save it.
 */
export interface PageEditorProps {
  /** The page's document as the API gave it (`GET .../page/{pageId}/document` or the revision's). */
  document: Document;
  /** Each change, as a whole document in our model (block keys kept); the host debounces and saves. */
  onChange(document: Document): void;
  /** Shown, not editable (a locked space, a person with `view` only, a merged change request). */
  readOnly?: boolean;
  /** For the link picker and page links: the space whose pages are searched. */
  spaceId: string;
  organizationId: string;
  /** Uploads a pasted or dropped file as a file of the space (or of the change request); resolves to its file id. */
  uploadFile(file: File): Promise<string>;
  /** The document was replaced from outside (a merge of someone else's save): the editor shows this one. */
  revision?: string;
}

import type { HocuspocusProvider } from '@hocuspocus/provider';
import type * as Y from 'yjs';
import type { Document } from '../../../src/features/content/document/types.ts';
import type { ExpressionVariables } from '../../../src/features/reader/expression-value.ts';
import type { AppLinks } from '../pages/links.ts';
import type { ApiReference } from '../../../src/features/openapi-specs/reference.ts';

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
  /** The caret at the page's start, focused, before the editor's first frame: the person asked to edit this page. */
  autofocus?: boolean;
  /** For the link picker and page links: the space whose pages are searched. */
  spaceId: string;
  organizationId: string;
  /**
   * Uploads a pasted, dropped or chosen file as a file of the space (or of the change request), telling how much
   * of it has gone (0 to 1); resolves to the file once it is stored, or rejects with the API's message.
   */
  uploadFile(file: File, onProgress?: (fraction: number) => void): Promise<EditorFile>;
  /**
   * Stores the image at a web address as a file of the space, fetched by the server (through its guard against
   * private addresses): the images of pasted web pages and documents. Rejects with the API's message when it cannot.
   */
  importFile?(url: string): Promise<EditorFile>;
  /** The files images and file blocks point to (the editor shows their bytes and names from here). */
  files?: EditorFiles;
  /** Words comments were made on, highlighted in the page (comment-ranges.ts); a click on them calls `onCommentRange`. */
  commentRanges?: readonly CommentRange[];
  onCommentRange?(ids: string[]): void;
  /** Starts a comment on the selected words, as the host's own "Comment" does (the selection toolbar's "Comment"). */
  onComment?(): void;
  /** The variables the page's expressions show (`space.vars`: the revision's, `page.vars`: the page's). */
  variables?: ExpressionVariables;
  /** The document was replaced from outside (a merge of someone else's save): the editor shows this one. */
  revision?: string;
  /**
   * Editing together: the page's shared Yjs document, synced. The editor shows and edits it instead of
   * `document` (still reporting each change through `onChange`), with the others' named carets. It may come after
   * the editor opened on `document`: what the person typed meanwhile is merged into it (join-shared.ts), the caret kept.
   */
  collaboration?: { document: Y.Doc; provider: HocuspocusProvider; user: { name: string; color: string } };
  /** The space's reusable contents, where the edits go: without it, a `reusable-content` block stays a kept card. */
  reusableContents?: EditorReusableContents;
  /** What OpenAPI and integration blocks show and offer (api-blocks.ts); without it they stay cards. */
  apiBlocks?: EditorApiBlocks;
}

/**
 * The reusable contents of the space the page is edited in (its live content or the change request), read and
 * written through the API by the host. Each promise rejects with the API's message when it cannot.
 */
export interface EditorReusableContents {
  /** Those of the target's current revision, by title. */
  list(): Promise<{ id: string; title: string }[]>;
  /** One of them with its document; null when the revision holds none by this id. */
  read(id: string): Promise<{ id: string; title: string; document: Document } | null>;
  /** Stores blocks as a new reusable content (`insert_reusable_content`); resolves to it. */
  create(title: string, document: Document): Promise<{ id: string; title: string }>;
  /** Replaces its document (`update_reusable_content`): every page including it shows the new one. */
  update(id: string, document: Document): Promise<void>;
  /** The pages whose saved documents include it, in the tree's order. */
  usedIn(id: string): Promise<{ id: string; title: string }[]>;
  /** Where the references of its blocks lead, as the page view follows them (it is drawn as readers see it). */
  links: AppLinks;
}

/**
 * The host's answers for OpenAPI operation blocks and integration blocks, from the public API: the
 * organization's specs and the reference of one (its latest version's operations), the blocks of the integrations
 * installed on the space, and an integration's rendering of a block (renderIntegrationUIWithPost). Each rejects with
 * the API's message when it cannot.
 */
export interface EditorApiBlocks {
  listSpecs(): Promise<{ slug: string; ready: boolean }[]>;
  specReference(slug: string): Promise<ApiReference>;
  /**
   * The reference of the spec a `swagger` block names by its address, found as the reader finds it: the organization's
   * spec fetched (by the server, through its fetch guard) from that URL; null when the organization has none from
   * there. Rejects saying why when it has one that cannot be read yet.
   */
  urlSpecReference(url: string): Promise<ApiReference | null>;
  /** Adds a spec of the organization fetched from this address (createOpenAPISpec): the server fetches it, later. */
  addUrlSpec(slug: string, url: string): Promise<void>;
  /**
   * The installed integrations that declare blocks: their icon (served by this server) and the page of their
   * settings in the app, when they have them.
   */
  integrationBlocks(): Promise<InstalledBlocks[]>;
  renderIntegration(integration: string, request: Record<string, unknown>): Promise<unknown>;
  /** The ContentKit context an integration block renders in (GitBook's ContentKitContextDocument). */
  blockContext: { type: 'document'; spaceId: string; editable: boolean; theme: 'light' | 'dark' };
}

/** An installed integration's blocks, as the `/` menu offers them and a block's toolbar links to its settings. */
export interface InstalledBlocks {
  name: string;
  title?: string;
  /** Its icon's address on this server. */
  icon?: string;
  /** Its settings in the app: its installation's page, or the integration's. */
  settingsUrl?: string;
  blocks: { id: string; title: string; description?: string }[];
}

/** A comment's words in the page: its id, its block's key (the API's `node`), the words it quotes. */
export interface CommentRange {
  id: string;
  node: string;
  text: string;
  /** The comment shown now: its words stand out. */
  active?: boolean;
}

/** A file of the space, as the API presents it (RevisionFile): its download URL is what the page view shows. */
export interface EditorFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}

/**
 * The host's directory of the files the editor shows, for React's useSyncExternalStore. `get` answers from what
 * is known (undefined: not yet; null: the space has no such file); `load` asks the API for a file not known yet.
 */
export interface EditorFiles {
  get(fileId: string): EditorFile | null | undefined;
  load(fileId: string): void;
  subscribe(onChange: () => void): () => void;
}

/*
 * Notes from the editor's side (branch `editor`), for the screen that hosts it:
 * - `React.lazy(() => import('../editor/page-editor.tsx'))`: the module's default export takes these props; its
 *   stylesheet comes with the chunk. `mount.tsx` (`mountPageEditor(element, props)`) is the same editor outside
 *   the router, an entry of the Vite build for tests and the bench.
 * - `onChange` gets a new Document object per change; blocks not edited are the very objects of `document`
 *   (compare by identity to find what changed). An empty document shows one empty paragraph and reports
 *   `nodes: []` while it stays empty.
 * - The editor keeps its own state. Handing back a document it reported (a controlled component) changes
 *   nothing; a new `revision`, or a document it did not report (a merge, another page), replaces what it shows.
 * - Blocks made in the editor carry no `key`; a block the editor copies (the new half of a split, a duplicate, a
 *   copy dropped) gets a random one of its own (model/unique-keys.ts): a document reported never holds a key twice.
 */

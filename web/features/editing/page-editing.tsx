import { useQuery, useQueryClient } from '@tanstack/react-query';
import { keys, meQuery } from '../../api/queries.ts';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Document } from '../../../src/features/content/document/types.ts';
import type { EditorApiBlocks } from '../editor/contract.ts';
import type { Revision, RevisionFile } from '../../api/types.ts';
import type { AppLinks } from '../pages/links.ts';
import type { ExpressionVariables } from '../../../src/features/reader/expression-value.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import type { SaveTransport } from './autosave.ts';
import { BodyEditor, preloadBlockEditor } from './body-editor.tsx';
import { personColor } from '../../ui/avatar.tsx';
import { useCollaboration, useSharedEdits } from './collaboration.ts';
import { ConflictPanel } from './conflict-panel.tsx';
import { EditorComments } from './editor-comments.tsx';
import { targetName, type EditTarget } from './edit-target.ts';
import { addSpecFromUrl, importFile, readIntegrationBlocks, readPageAt, readSpecs, renderIntegrationUI, uploadFile, writeChanges } from './editing-api.ts';
import { readSpecReference, readSpecReferenceByUrl } from '../openapi/openapi-api.ts';
import { useTargetFiles } from './editor-files.ts';
import { PageHeaderEditor } from './page-header-editor.tsx';
import { reusableContentsOf } from './reusable-contents.ts';
import { PeopleInPage } from './people-in-page.tsx';
import { SaveStatus } from './save-status.tsx';
import { unsavedEdits, type SaveState } from './save-queue.ts';
import { useAutosave } from './use-autosave.ts';

const EMPTY: Document = { object: 'document', data: {}, nodes: [] } as unknown as Document;

interface Props {
  spaceId: string;
  organizationId: string;
  target: EditTarget;
  /** The revision the tree was read at: the page is read there too, and its edits are based on it. */
  revisionId: string;
  pageId: string;
  links: AppLinks;
  /** The files of the target's revision the screen holds (read again after each save). */
  files: readonly RevisionFile[];
  /** The variables of the revision and of the page, which the page's expressions show. */
  variables: ExpressionVariables;
  /** A save changed what the tree shows (title, emoji): it is read again. */
  onSaved(): void;
}

/** One page being edited: its header and body, saved as the person types, wherever the space's edits go. */
export function PageEditing(props: Props) {
  const { spaceId, target, revisionId, pageId } = props;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['space', spaceId, 'edit', targetName(target), 'page', pageId, revisionId],
    queryFn: ({ signal }) => readPageAt(spaceId, revisionId, pageId, signal),
    // Editing the live space at the revision the page view showed: the page as the page view read it, no round trip.
    initialData: () => (target.kind === 'live' && queryClient.getQueryData<Revision>(keys.revision(spaceId))?.id === revisionId ? queryClient.getQueryData<Awaited<ReturnType<typeof readPageAt>>>(keys.page(spaceId, pageId)) : undefined),
    staleTime: Infinity,
    gcTime: 0,
  });
  if (query.isPending) return <Skeleton lines={8} label="Loading the page" />;
  if (query.error) return <ErrorNote error={query.error} />;
  return <LoadedPage {...props} page={query.data} />;
}

function LoadedPage({ spaceId, organizationId, target, revisionId, pageId, links, files: revisionFiles, variables, onSaved, page }: Props & { page: Awaited<ReturnType<typeof readPageAt>> }) {
  const queryClient = useQueryClient();
  const transport = useCallback<SaveTransport>(
    async (change, { keepalive }) => {
      // Browsers refuse keepalive bodies over 64 KB: a long page is sent as a plain request (it completes while
      // the tab is only hidden; if the tab is closing, the browser's copy is sent on the next open).
      const answer = await writeChanges(spaceId, target, [change], { keepalive: keepalive && JSON.stringify(change).length < 60_000 });
      const merged = answer.merged.find((m) => m.page === pageId)?.document;
      return { revision: answer.revision, ...(merged ? { merged } : {}) };
    },
    [spaceId, target, pageId],
  );
  const { autosave, state } = useAutosave({ spaceId, target: targetName(target), pageId, base: revisionId, transport });
  const me = useQuery(meQuery());
  const joined = useCollaboration({ spaceId, target, pageId, user: me.data ? { name: me.data.displayName, color: personColor(me.data.id) } : null });
  // Without knowing who the person is, the page is edited alone, through the API.
  const collaboration = me.isError ? ({ status: 'unavailable' } as const) : joined;
  const together = collaboration.status === 'connected' ? collaboration.session : undefined;
  const sharedEdits = useSharedEdits(together?.provider);
  useEffect(preloadBlockEditor, []);
  // The body is editable while the shared document connects; what is typed meanwhile is merged into it once it is
  // synced (the editor does it), or saved through the API if it never is.
  const typedBeforeSync = useRef<Document | null>(null);
  useEffect(() => {
    if (collaboration.status === 'connecting') return;
    const typed = typedBeforeSync.current;
    typedBeforeSync.current = null;
    if (typed && collaboration.status === 'unavailable') autosave.edit({ document: typed });
  }, [collaboration.status, autosave]);
  // What the person had not saved last time wins over what the server has: it is sent (and merged) at once.
  const kept = autosave.keptOnOpen?.edit;
  const initialDocument = useMemo(() => kept?.document ?? page.document ?? EMPTY, [kept, page.document]);
  const files = useTargetFiles(spaceId, target, revisionFiles);
  // OpenAPI and integration blocks (editor/contract.ts `apiBlocks`): the organization's specs, the space's integrations.
  const apiBlocks = useMemo<EditorApiBlocks>(
    () => ({
      listSpecs: () => readSpecs(organizationId),
      specReference: (slug) => readSpecReference(organizationId, slug),
      urlSpecReference: (url) => readSpecReferenceByUrl(organizationId, url),
      addUrlSpec: (slug, url) => addSpecFromUrl(organizationId, slug, url),
      integrationBlocks: () => readIntegrationBlocks(spaceId, organizationId),
      renderIntegration: renderIntegrationUI,
      blockContext: { type: 'document', spaceId, editable: true, theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light' },
    }),
    [organizationId, spaceId],
  );
  const upload = useCallback(
    async (file: File, onProgress?: (fraction: number) => void) => {
      const stored = await uploadFile(spaceId, target, file, onProgress);
      files.add(stored);
      return stored;
    },
    [spaceId, target, files],
  );
  const importImage = useCallback(
    async (url: string) => {
      const stored = await importFile(spaceId, target, url);
      files.add(stored);
      return stored;
    },
    [spaceId, target, files],
  );

  const replacedAt = useRef(state.replacedAt);
  const savedBase = useRef(state.base);
  useEffect(() => {
    if (state.base !== savedBase.current) {
      savedBase.current = state.base;
      onSaved();
      void queryClient.invalidateQueries({ queryKey: ['space', spaceId, 'page'] });
    }
  }, [state.base, onSaved, queryClient, spaceId]);

  // The document the editor shows now (its blocks in order), for the comment threads placed beside them.
  const editorDocument = state.replaced ?? initialDocument;
  const shownDocument = useRef(editorDocument);
  if (state.replaced && shownDocument.current !== state.replaced && state.replacedAt !== replacedAt.current) {
    replacedAt.current = state.replacedAt;
    shownDocument.current = state.replaced;
  }

  // The same reusable contents for the page's whole editing (the editor keeps what it read of them), its links as they are now.
  const currentLinks = useRef(links);
  currentLinks.current = links;
  const reusableContents = useMemo(
    () =>
      reusableContentsOf(spaceId, target, { page: (id, space) => currentLinks.current.page(id, space), file: (id) => currentLinks.current.file(id) }, () => ({
        id: pageId,
        title: page.title,
        document: shownDocument.current,
      })),
    [spaceId, target, pageId, page.title],
  );

  const coverFile = page.cover?.ref?.kind === 'file' ? page.cover.ref.file : undefined;
  // After a conflict is resolved, or a closed tab's edits taken in, the header shows what is unsaved over the page's.
  const header = { ...kept, ...(state.resolvedAt > 0 ? unsavedEdits(state) : {}) };
  // Editing together, the body's edits are saved by the server: the header's, by the autosave.
  const shownState: SaveState = together && sharedEdits !== 'none' && (state.status === 'idle' || state.status === 'saved') ? { ...state, status: sharedEdits } : state;
  return (
    <div className="page-editing">
      <div className="page-editing-bar">
        <SaveStatus state={shownState} where={target.kind === 'live' ? 'Editing the live space' : `Editing in change request #${target.number}`} />
        {together ? <PeopleInPage provider={together.provider} /> : null}
      </div>
      {state.status === 'conflict' && state.conflicts ? (
        <ConflictPanel key={state.base} conflicts={state.conflicts} message={state.message} document={state.conflictDocument} links={links} onResolve={(choices) => autosave.resolve(choices)} />
      ) : null}
      <PageHeaderEditor
        key={state.resolvedAt}
        initial={{
          title: header.title ?? page.title,
          description: header.description ?? page.description ?? '',
          emoji: header.emoji ?? page.emoji ?? '',
          cover: header.cover !== undefined ? (header.cover ? { fileId: header.cover.ref.file } : null) : coverFile ? { fileId: coverFile, url: links.file(coverFile)?.href } : null,
        }}
        onEdit={(edit) => autosave.edit(edit)}
        upload={upload}
      />
      <EditorComments spaceId={spaceId} target={target} pageId={pageId} document={shownDocument}>
        {(anchors) => (
          <BodyEditor
            document={editorDocument}
            revision={String(state.replacedAt)}
            autofocus
            {...(together ? { collaboration: together } : {})}
            onChange={(document) => {
              shownDocument.current = document;
              if (together) return;
              if (collaboration.status === 'connecting') typedBeforeSync.current = document;
              else autosave.edit({ document });
            }}
            spaceId={spaceId}
            organizationId={organizationId}
            uploadFile={upload}
            importFile={importImage}
            files={files}
            apiBlocks={apiBlocks}
            variables={variables}
            links={links}
            reusableContents={reusableContents}
            commentRanges={anchors.commentRanges}
            onCommentRange={anchors.onCommentRange}
            {...(anchors.onComment ? { onComment: anchors.onComment } : {})}
          />
        )}
      </EditorComments>
    </div>
  );
}

import { posToDOMRect, type Editor, type Range } from '@tiptap/core';
import { Selection } from '@tiptap/pm/state';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { PageEditorProps } from './contract.ts';
import { BlockMenu } from './block-menu.tsx';
import { BlockSettings } from './block-settings.tsx';
import { DocumentSync } from './document-sync.ts';
import { editorExtensions } from './extensions.ts';
import { FilesContext } from './files.ts';
import { ApiBlocksContext } from './api-blocks.ts';
import { OperationInsert, useDeclaredBlocks } from './api-block-picker.tsx';
import { VariablesContext } from '../pages/variables.ts';
import type { ExpressionVariables } from '../../../src/features/reader/expression-value.ts';
import { joinSharedDocument, type OpenedAlone } from './join-shared.ts';
import { bindSharedDocument } from './shared-binding.ts';
import { LinkPicker, type PickedRef } from './link-picker.tsx';
import { pasteHtml } from './paste/paste-html.ts';
import { pasteMarkdown } from './paste/paste-markdown.ts';
import { contentRef, slashItems, type SlashItem } from './slash/items.ts';
import { slashExtension, SlashMenu } from './slash/slash-menu.tsx';
import { useSuggestionMenu } from './suggestion-menu.ts';
import type { EmojiEntry } from './emoji/emoji-data.ts';
import { emojiExtension, EmojiPicker } from './emoji/emoji-picker.tsx';
import type { MentionCandidate } from './mention/mention-data.ts';
import { mentionExtension, MentionPicker } from './mention/mention-picker.tsx';
import { commentRangesExtension, refreshCommentRanges } from './comment-ranges.ts';
import { UploadPlaceholder, UploadPlaceholders } from './upload-placeholders.ts';
import { MarkButtons, SelectionToolbar } from './selection-toolbar.tsx';
import { createMenuHosts, menuHostExtensions } from './menu-hosts.ts';
import { ShortcutHelp } from './shortcut-help.tsx';
import { FindBar, PageSearch } from './find-bar.tsx';
import { PageOutline } from './page-outline.tsx';
import { blocksToReuse, type BlockRun } from './reusable/block-run.ts';
import { CreateReusableDialog } from './reusable/create-reusable.tsx';
import { ReusableContext, ReusableDirectory } from './reusable/reusable-directory.ts';
import { reusableNode } from './reusable/reusable-model.ts';
import { ReusablePicker } from './reusable/reusable-picker.tsx';
import { contentElementOf, drawNodeViewsFromTheStart } from './content-mount.ts';
import { ControlsShown } from './controls-shown.ts';
import { faKeyboard, faRotateLeft, faRotateRight } from '@fortawesome/free-solid-svg-icons';
import { IconButton } from '../../ui/button.tsx';
import './editor.css';

export { warmUpEditor } from './warm-up.ts';


const NO_VARIABLES: ExpressionVariables = {};
/** An image block of one uploaded file, as GitBook writes one (an `images` block holding one `image`). */
const imageBlock = (file: string, alt: string) => ({
  type: 'images',
  attrs: { block: { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [] } },
  content: [{ type: 'image', attrs: { block: { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file }, ...(alt ? { alt } : {}) }, fragments: [] } } }],
});

/** A file block of one uploaded file (its caption fragment added later, if wanted). */
const fileBlock = (file: string) => ({
  type: 'file',
  attrs: { block: { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file } }, fragments: [] } },
});

/**
 * The block editor of a page (issue 28): TipTap over our document model (model/), reporting each change as a
 * whole document. Loaded lazily: this module and TipTap are their own chunk.
 */
export default function PageEditor(props: PageEditorProps) {
  const [slash, bridge] = useSuggestionMenu<SlashItem>();
  const [emoji, emojiBridge] = useSuggestionMenu<EmojiEntry>();
  const [mention, mentionBridge] = useSuggestionMenu<MentionCandidate>();
  const place = useMemo(() => ({ organizationId: props.organizationId, spaceId: props.spaceId }), [props.organizationId, props.spaceId]);
  // The link picker: for a link over the selection, or for a page link card replacing the `/` command's range.
  const [linking, setLinking] = useState<false | 'mark' | { editor: Editor; range: Range }>(false);
  // The OpenAPI operation picker, for the `/` command's range it replaces.
  const [pickingOperation, setPickingOperation] = useState<{ editor: Editor; range: Range; kind: 'operation' | 'webhook' } | null>(null);
  const declaredBlocks = useDeclaredBlocks(props.apiBlocks);
  const [failure, setFailure] = useState('');
  const [helping, setHelping] = useState(false);
  const [finding, setFinding] = useState(false);
  const latest = useRef(props);
  latest.current = props;
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingRange = useRef<{ editor: Editor; range: Range; as: 'image' | 'file' } | null>(null);
  // Reusable content (reusable/): what blocks show of it, the `/` menu's picker, and blocks being made into one.
  const directory = useMemo(() => (props.reusableContents ? new ReusableDirectory(props.reusableContents) : undefined), [props.reusableContents]);
  const reusableContext = useMemo(() => directory && { directory, Editor: PageEditor, get host() { return latest.current; } }, [directory]);
  const [pickingReusable, setPickingReusable] = useState<{ editor: Editor; range: Range } | null>(null);
  const [reusing, setReusing] = useState<BlockRun | null>(null);
  const reuse = (editor: Editor, at?: number) => {
    const run = blocksToReuse(editor.state, at);
    if (!run) return;
    // The selection's toolbar goes: it stays over the dialog otherwise, the focus having left the page from it.
    editor.view.dispatch(editor.state.tr.setMeta('selectionToolbar', 'hide').setMeta('addToHistory', false));
    setReusing(run);
  };

  /**
   * Uploads files as files of the space, each shown at `at` (or the caret) while it goes, its block put there once
   * it is stored; `as: 'image'` takes the images only and inserts image blocks. One at a time, in order.
   */
  const upload = (editor: Editor, files: File[], at?: number, as: 'image' | 'file' = 'image') => {
    const chosen = as === 'image' ? files.filter((f) => f.type.startsWith('image/')) : files;
    const from = at ?? editor.state.selection.from;
    const placeholders = chosen.map((file, order) => new UploadPlaceholder(editor.view, from, file, order));
    void (async () => {
      for (const [i, file] of chosen.entries()) {
        const placeholder = placeholders[i]!;
        try {
          const stored = await latest.current.uploadFile(file, (fraction) => placeholder.progress(fraction));
          if (editor.isDestroyed) return;
          const content = as === 'image' ? imageBlock(stored.id, file.name.replace(/\.[^.]+$/, '')) : fileBlock(stored.id);
          // Where the placeholder is now, the caret left where the person has it.
          editor.chain().insertContentAt(placeholder.finish() ?? editor.state.selection.to, content, { updateSelection: false }).run();
        } catch (error) {
          placeholder.fail(error instanceof Error ? error.message : String(error));
        }
      }
    })();
  };

  const pick = (editor: Editor, range: Range, as: 'image' | 'file') => {
    pendingRange.current = { editor, range, as };
    if (!fileInput.current) return;
    fileInput.current.accept = as === 'image' ? 'image/*' : '';
    fileInput.current.click();
  };


  // The editor keeps its own state. A host may hand back each document the editor reported (a controlled
  // component): that is not a replacement. A new revision, or a document the editor did not report, is.
  const reported = useRef(new WeakSet<PageEditorProps['document']>());
  const shown = useRef({ document: props.document, revision: props.revision, generation: 0 });
  if (props.revision !== shown.current.revision || (props.document !== shown.current.document && !reported.current.has(props.document))) {
    shown.current = { document: props.document, revision: props.revision, generation: shown.current.generation + 1 };
  }
  const generation = shown.current.generation;
  // A new generation is what replaces the document shown (shown.current.document is read once per generation).
  const sync = useMemo(() => new DocumentSync(shown.current.document), [generation]);
  const collaboration = props.collaboration;
  // The editor opens on `document`, and is bound to the shared document once it has synced (shared-binding.ts). A
  // session replacing another one (or none replacing one) builds it again, bound from the start.
  const previousSession = useRef(collaboration);
  const sessions = useRef(0);
  if (collaboration !== previousSession.current) {
    if (previousSession.current) sessions.current += 1;
    previousSession.current = collaboration;
  }
  const session = sessions.current;
  // The editor while it is not bound yet (join-shared.ts): what was typed in it goes into the shared document.
  const alone = useRef<OpenedAlone | null>(null);
  // The block the handle is beside (its menu acts on it), and the elements the handle's menu and the selection's
  // toolbar are drawn in: their plugins are the editor's own from its start (menu-hosts.ts).
  const handleTarget = useRef<number>(-1);
  const [menuHosts] = useState(createMenuHosts);

  const editor = useEditor(
    {
      extensions: editorExtensions({
        spaceId: props.spaceId,
        extra: [
          ...menuHostExtensions(menuHosts, (_node, pos) => (handleTarget.current = pos)),
          UploadPlaceholders,
          PageSearch,
          slashExtension(
            () =>
              slashItems({
                pickImage: (editor, range) => pick(editor, range, 'image'),
                pickFile: (editor, range) => pick(editor, range, 'file'),
                // The `/` menu gives way to the picker (it would cover it): the command's text stays until a page is picked.
                pickPage: (editor, range) => {
                  bridge.set(null);
                  setLinking({ editor, range });
                },
                ...(latest.current.reusableContents
                  ? {
                      pickReusable: (editor: Editor, range: Range) => {
                        bridge.set(null);
                        setPickingReusable({ editor, range });
                      },
                    }
                  : {}),
                ...(latest.current.apiBlocks
                  ? {
                      pickOperation: (editor: Editor, range: Range, kind: 'operation' | 'webhook') => {
                        bridge.set(null);
                        setPickingOperation({ editor, range, kind });
                      },
                    }
                  : {}),
                integrationBlocks: declaredBlocks.current,
              }),
            bridge,
          ),
          emojiExtension(emojiBridge),
          mentionExtension(mentionBridge, place),
          commentRangesExtension(
            () => latest.current.commentRanges ?? [],
            (ids) => latest.current.onCommentRange?.(ids),
          ),
        ],
      }),
      content: sync.content(),
      editable: !props.readOnly,
      // Built after the first commit, in an effect, not while rendering: the editing screen renders in a
      // transition, which yields, and TipTap destroys an editor built during a render that has not mounted
      // within a millisecond, then builds it again once mounted — a 2,000-block page was built twice before its
      // caret showed (issue 42). The body is empty for that one frame.
      immediatelyRender: false,
      shouldRerenderOnTransaction: false,
      onBeforeCreate: ({ editor: created }) => {
        drawNodeViewsFromTheStart(created);
        alone.current = { editor: created, generation, edited: false };
      },
      editorProps: {
        attributes: { 'aria-label': 'Page content', role: 'textbox', 'aria-multiline': 'true', class: 'qe-content reader-content' },
        // Ctrl/Cmd-K in the page makes a link, as in every editor, instead of opening the app's search (the shell
        // listens on the window, after the page).
        handleKeyDown: (_view, event) => {
          if (latest.current.readOnly || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false;
          // Ctrl/Cmd-/ lists the shortcuts.
          if (event.key === '/') {
            event.preventDefault();
            setHelping(true);
            return true;
          }
          // Ctrl/Cmd-F finds in the page (and replaces), not the browser's find, which cannot replace.
          if (event.key.toLowerCase() === 'f') {
            event.preventDefault();
            setFinding(true);
            return true;
          }
          if (event.key.toLowerCase() !== 'k') return false;
          event.preventDefault();
          event.stopPropagation();
          setLinking('mark');
          return true;
        },
        handlePaste: (view, event) => {
          const current = editorRef.current;
          if (!current) return false;
          const files = [...(event.clipboardData?.files ?? [])];
          const images = files.some((f) => f.type.startsWith('image/'));
          // An image copied alone (from a web page, a screenshot) is its bytes, stored as a file of the space; copied
          // with text (a document, a page), the HTML says where it goes.
          if (images && !/\S/.test((event.clipboardData?.getData('text/html') ?? '').replace(/<[^>]*>|&nbsp;/g, ' '))) {
            upload(current, files);
            return true;
          }
          if (pasteHtml(current, event, { uploadFile: (file) => latest.current.uploadFile(file), importFile: latest.current.importFile && ((url) => latest.current.importFile!(url)) }, setFailure) || pasteMarkdown(current, event, setFailure)) return true;
          if (!images) return false;
          upload(current, files);
          return true;
        },
        handleDrop: (view, event) => {
          const files = [...(event.dataTransfer?.files ?? [])];
          if (!files.some((f) => f.type.startsWith('image/')) || !editorRef.current) return false;
          const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
          upload(editorRef.current, files, at?.pos);
          return true;
        },
      },
      // Once bound, the shared document may differ from `document` (others' edits): its blocks are read, not paired.
      onCreate: ({ editor }) => sync.remember(editor.state.doc),
      onUpdate: ({ editor }) => {
        if (alone.current?.editor === editor) alone.current.edited = true;
        const document = sync.read(editor.state.doc);
        reported.current.add(document);
        latest.current.onChange(document);
      },
    },
    [sync, session],
  );
  const editorRef = useRef<Editor | null>(null);
  editorRef.current = editor;
  // The editor's controls (toolbar, block settings, block menu, a table's buttons) are drawn the frame after its page:
  // the caret first. In a transition: a key typed meanwhile is not kept waiting for them.
  const [controlsShown, setControlsShown] = useState(false);
  useEffect(() => {
    if (!editor || controlsShown) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => (timer = window.setTimeout(() => startTransition(() => setControlsShown(true)), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [editor, controlsShown]);

  // The shared document synced: what the person typed meanwhile goes into it, and the editor shows it from then on,
  // the caret where it was. Before a frame is drawn: an editor built again for a new session shows it at once.
  const bound = useRef<Editor | null>(null);
  useLayoutEffect(() => {
    if (!editor || editor.isDestroyed || !collaboration || bound.current === editor) return;
    bound.current = editor;
    const opened = alone.current?.editor === editor ? alone.current : { editor, generation, edited: false };
    alone.current = null;
    bindSharedDocument(editor, collaboration, joinSharedDocument(collaboration.document, shown.current.document, opened, (doc) => sync.read(doc)));
  }, [editor, collaboration, generation, sync]);

  // Before the first frame with this editor's content, so that the next key lands where the person expects it:
  // (the host asking) the page's start.
  const autofocused = useRef(false);
  useLayoutEffect(() => {
    if (!editor || editor.isDestroyed || !props.autofocus || autofocused.current || props.readOnly) return;
    autofocused.current = true;
    // The person already put the keys elsewhere (the title, which shows before the body): the body does not take
    // them back — what they type next belongs where they put it (CI saw a title typed into the page's first block).
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !editor.view.dom.contains(active) && active.matches('input, textarea, select, [contenteditable="true"]')) return;
    editor.view.dispatch(editor.state.tr.setSelection(Selection.atStart(editor.state.doc)));
    editor.view.focus();
  }, [editor, props.autofocus, props.readOnly]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) refreshCommentRanges(editor.view);
  }, [editor, props.commentRanges]);

  useEffect(() => {
    // Without an update event: switching to read-only changes nothing to report.
    if (editor && editor.isEditable === !!props.readOnly) editor.setEditable(!props.readOnly, false);
  }, [editor, props.readOnly]);

  const marks = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      strike: e?.isActive('strike') ?? false,
      code: e?.isActive('code') ?? false,
      link: e?.isActive('link') ?? false,
      canUndo: e?.can().undo() ?? false,
      canRedo: e?.can().redo() ?? false,
    }),
  });

  const applyLink = (ref: PickedRef) => {
    const card = linking;
    setLinking(false);
    if (!editor) return;
    if (typeof card === 'object') {
      card.editor.chain().focus().deleteRange(card.range).insertContent(contentRef(ref.kind === 'url' ? ref : { kind: 'page', page: ref.page })).run();
      return;
    }
    const inline = { object: 'inline', type: 'link', data: { ref: ref.kind === 'url' ? ref : { kind: 'page', page: ref.page } }, nodes: [] };
    const attrs = { inline, id: `n${Date.now().toString(36)}`, leading: null, trailing: null };
    const { empty } = editor.state.selection;
    if (empty) {
      const label = ref.kind === 'url' ? ref.url : ref.title;
      editor.chain().focus().insertContent({ type: 'text', text: label, marks: [{ type: 'link', attrs }] }).run();
    } else editor.chain().focus().setMark('link', attrs).run();
  };

  const readOnly = props.readOnly === true;
  const variables = props.variables ?? NO_VARIABLES;
  const controls = editor && controlsShown ? editor : null;
  return (
    <div className="qe-editor">
      {!readOnly && editor && (
        <div className="qe-toolbar" role="toolbar" aria-label="Formatting">
          {controls && <>
          <MarkButtons editor={editor} marks={marks ?? undefined} onLink={() => setLinking('mark')} />
          <IconButton size="sm" icon={faRotateLeft} label="Undo" disabled={!marks?.canUndo} onClick={() => editor.chain().focus().undo().run()} />
          <IconButton size="sm" icon={faRotateRight} label="Redo" disabled={!marks?.canRedo} onClick={() => editor.chain().focus().redo().run()} />
          <IconButton size="sm" icon={faKeyboard} label="Keyboard shortcuts" onClick={() => setHelping(true)} />
          <PageOutline editor={editor} />
          </>}
        </div>
      )}
      <ShortcutHelp
        open={helping}
        onOpenChange={(open) => {
          setHelping(open);
          if (!open) editor?.commands.focus();
        }}
      />
      {!readOnly && controls && <SelectionToolbar editor={controls} host={menuHosts.selectionToolbar} marks={marks ?? undefined} onLink={() => setLinking('mark')} {...(directory ? { onCreateReusable: () => reuse(controls) } : {})} {...(props.onComment ? { onComment: () => latest.current.onComment?.() } : {})} />}
      {!readOnly && controls && (
        <ApiBlocksContext.Provider value={props.apiBlocks}>
          <BlockSettings editor={controls} uploadFile={(file) => latest.current.uploadFile(file)} />
        </ApiBlocksContext.Provider>
      )}
      {finding && editor && !readOnly && <FindBar editor={editor} onClose={() => setFinding(false)} />}
      {linking && editor && (
        <LinkPicker
          spaceId={props.spaceId}
          // Beside what is linked: the selection (or the caret), or the `/` command's text for a card.
          rect={() => (linking === 'mark' ? posToDOMRect(editor.view, editor.state.selection.from, editor.state.selection.to) : posToDOMRect(linking.editor.view, linking.range.from, linking.range.to))}
          label={linking === 'mark' ? 'Link' : 'Page link'}
          onPick={applyLink}
          onClose={() => {
            setLinking(false);
            editor.commands.focus();
          }}
        />
      )}
      {pickingOperation && props.apiBlocks && (
        <OperationInsert
          host={props.apiBlocks}
          at={pickingOperation}
          onClose={() => {
            setPickingOperation(null);
            pickingOperation.editor.commands.focus();
          }}
        />
      )}
      {failure && <p role="alert" className="qe-failure">{failure}</p>}
      {controls && !readOnly && (
        createPortal(<BlockMenu editor={controls} target={handleTarget} {...(directory ? { onCreateReusable: (pos: number) => reuse(controls, pos) } : {})} />, menuHosts.blockHandle)
      )}
      <FilesContext.Provider value={props.files}>
        <VariablesContext.Provider value={variables}>
          <ReusableContext.Provider value={reusableContext}>
            <ApiBlocksContext.Provider value={props.apiBlocks}>
              <ControlsShown.Provider value={controlsShown}>
                <EditorContent editor={editor} ref={contentElementOf(editor)} />
              </ControlsShown.Provider>
            </ApiBlocksContext.Provider>
          </ReusableContext.Provider>
        </VariablesContext.Provider>
      </FilesContext.Provider>
      {slash && editor && (
        <SlashMenu
          editor={editor}
          state={slash}
          onSelect={(i) => {
            const item = slash.items[i];
            if (item) slash.run(item);
          }}
        />
      )}
      {emoji && editor && (
        <EmojiPicker
          editor={editor}
          state={emoji}
          onSelect={(i) => {
            const item = emoji.items[i];
            if (item) emoji.run(item);
          }}
        />
      )}
      {mention && editor && <MentionPicker editor={editor} state={mention} />}
      {pickingReusable && directory && (
        <ReusablePicker
          source={directory.source}
          onPick={(entry) => {
            setPickingReusable(null);
            pickingReusable.editor.chain().focus().deleteRange(pickingReusable.range).insertContent(reusableNode(entry.id)).run();
          }}
          onClose={() => {
            setPickingReusable(null);
            editor?.commands.focus();
          }}
        />
      )}
      {reusing && editor && directory && <CreateReusableDialog editor={editor} run={reusing} directory={directory} onClose={() => setReusing(null)} />}
      <input
        ref={fileInput}
        type="file"
        hidden
        aria-label="Upload a file"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          const pending = pendingRange.current;
          pendingRange.current = null;
          if (!pending) return;
          pending.editor.chain().focus().deleteRange(pending.range).run();
          upload(pending.editor, files, undefined, pending.as);
        }}
      />
    </div>
  );
}

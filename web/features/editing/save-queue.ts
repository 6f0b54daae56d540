import type { Document } from '../../../src/features/content/document/types.ts';
import { mergeDocumentBlocks, type MergeableDocument } from '../../../src/features/content/document/merge-blocks.ts';

/*
 * The save path of one page being edited, as a pure state machine: edits gather while a person types, are sent
 * (one request at a time) based on the revision they were made on, and come back saved, merged with someone
 * else's save, refused with the conflicts, or not sent at all (offline). Nothing here waits or fetches:
 * autosave.ts drives it with timers and the network, and tests drive it directly.
 */

/** What a person changed on the page since the last save: the whole document, and page fields set. */
export interface PageEdit {
  document?: Document;
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  /** The page's cover: a file of the space (update_page `cover`), null to remove it. */
  cover?: { ref: { kind: 'file'; file: string } } | null;
}

/** A conflict as the API's 409 lists it (SaveConflictBody). */
export interface SaveConflict {
  page: string;
  field: string;
  block?: string;
  kind: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

export type SaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'offline' | 'error' | 'conflict';

export interface SaveState {
  pageId: string;
  /** The revision the edits are based on: the one the page was read at, then each save's. */
  base: string;
  /** Edits not sent yet. */
  pending: PageEdit | null;
  /** Edits of the request under way. */
  inFlight: PageEdit | null;
  status: SaveStatus;
  /** The API's message (error), or what the conflict is. */
  message?: string;
  conflicts?: SaveConflict[];
  /** With conflicts: the merged document where our version stands in each conflicting block. */
  conflictDocument?: Document;
  /**
   * A document from outside (a merge with someone else's save, a resolved conflict) for the editor to show; it
   * changes `replacedAt` so the editor knows it is new.
   */
  replaced?: Document;
  replacedAt: number;
  /** Counts the conflicts resolved: the page's header shows the chosen values after each. */
  resolvedAt: number;
}

export type SaveEvent =
  | { type: 'edit'; edit: PageEdit }
  | { type: 'send' }
  | { type: 'saved'; revision: string; merged?: Document }
  | { type: 'offline' }
  | { type: 'failed'; message: string }
  | { type: 'conflict'; revision: string; message: string; conflicts: SaveConflict[]; document?: Document }
  | { type: 'resolve'; choices: ReadonlyMap<number, 'mine' | 'theirs'> }
  | { type: 'adopt'; base: string; edit: PageEdit }
  | { type: 'online' };

export function initialSaveState(pageId: string, base: string, unsaved: PageEdit | null = null): SaveState {
  return { pageId, base, pending: unsaved, inFlight: null, status: unsaved ? 'pending' : 'idle', replacedAt: 0, resolvedAt: 0 };
}

/** Two edits as one: the later one's fields win. */
export function combineEdits(earlier: PageEdit | null, later: PageEdit | null): PageEdit | null {
  if (!earlier) return later;
  if (!later) return earlier;
  return { ...earlier, ...later };
}

/** Whether a request should start now: edits waiting, none under way, nothing the person must decide first. */
export function shouldSend(state: SaveState): boolean {
  return state.pending !== null && state.inFlight === null && state.status !== 'conflict' && state.status !== 'offline';
}

/** Edits not on the server yet (under way or waiting), which must survive a reload. */
export function unsavedEdits(state: SaveState): PageEdit | null {
  return combineEdits(state.inFlight, state.pending);
}

export function saveReducer(state: SaveState, event: SaveEvent): SaveState {
  switch (event.type) {
    case 'edit': {
      const pending = combineEdits(state.pending, event.edit);
      // A conflict waits for the person's choice; edits made meanwhile are kept for after it.
      if (state.status === 'conflict' || state.status === 'offline') return { ...state, pending };
      return { ...state, pending, status: state.inFlight ? 'saving' : 'pending', message: undefined };
    }
    case 'send':
      if (!shouldSend(state)) return state;
      return { ...state, inFlight: state.pending, pending: null, status: 'saving', message: undefined };
    case 'saved': {
      const sent = state.inFlight;
      let pending = state.pending;
      let replaced = state.replaced;
      let replacedAt = state.replacedAt;
      if (event.merged) {
        // The server merged our save with someone else's: the editor shows the merged document, and edits made
        // while the request was under way are carried over onto it, as the server would have merged them.
        let next = event.merged;
        if (pending?.document && sent?.document) {
          next = mergeDocumentBlocks(sent.document as unknown as MergeableDocument, pending.document as unknown as MergeableDocument, event.merged as unknown as MergeableDocument)
            .document as unknown as Document;
          pending = { ...pending, document: next };
        }
        replaced = next;
        replacedAt = state.replacedAt + 1;
      }
      return { ...state, base: event.revision, inFlight: null, pending, status: pending ? 'pending' : 'saved', message: undefined, replaced, replacedAt };
    }
    case 'offline':
      return { ...state, pending: unsavedEdits(state), inFlight: null, status: 'offline', message: undefined };
    case 'online':
      return state.status === 'offline' ? { ...state, status: state.pending ? 'pending' : 'saved' } : state;
    case 'failed':
      // The edits stay (in the page and in this browser); the next edit or a retry sends them again.
      return { ...state, pending: unsavedEdits(state), inFlight: null, status: 'error', message: event.message };
    case 'conflict':
      return {
        ...state,
        pending: unsavedEdits(state),
        inFlight: null,
        base: event.revision,
        status: 'conflict',
        message: event.message,
        conflicts: event.conflicts,
        conflictDocument: event.document,
      };
    case 'resolve':
      return resolveConflicts(state, event.choices);
    case 'adopt':
      // Edits another tab kept and left behind as it closed, found after this editor opened: they become this
      // editor's, on their own base, as if they had been found on opening. Only when nothing of this editor's is
      // unsaved or waiting on a choice: its own edits go first (autosave.ts adopts once they are saved).
      if (unsavedEdits(state) || state.status === 'conflict') return state;
      return {
        ...state,
        base: event.base,
        pending: event.edit,
        status: state.status === 'offline' ? 'offline' : 'pending',
        message: undefined,
        // The header is drawn again with them (page-editing.tsx keys it by resolvedAt), the body shows their document.
        resolvedAt: state.resolvedAt + 1,
        ...(event.edit.document ? { replaced: event.edit.document, replacedAt: state.replacedAt + 1 } : {}),
      };
  }
}

/**
 * The person chose a version of each conflict (by its index; unchosen ones keep theirs): the edits become the
 * merged document with those versions, based on the revision the conflict was found at, and are sent again.
 */
function resolveConflicts(state: SaveState, choices: ReadonlyMap<number, 'mine' | 'theirs'>): SaveState {
  if (state.status !== 'conflict' || !state.conflicts) return state;
  let edit: PageEdit = { ...state.pending };
  let nodes = state.conflictDocument ? [...(state.conflictDocument.nodes as unknown as { key?: string }[])] : undefined;
  state.conflicts.forEach((conflict, index) => {
    const side = choices.get(index) ?? 'theirs';
    const value = side === 'mine' ? conflict.ours : conflict.theirs;
    if (conflict.field === 'document' && nodes) {
      const at = nodes.findIndex((n) => n.key === conflict.block);
      if (value === null) {
        if (at >= 0) nodes.splice(at, 1);
      } else if (at >= 0) nodes[at] = value as { key?: string };
      else nodes = [...nodes, value as { key?: string }];
    } else if (conflict.field !== 'document') {
      edit = { ...edit, [conflict.field]: value ?? '' };
    }
  });
  const document = nodes && state.conflictDocument ? ({ ...state.conflictDocument, nodes } as unknown as Document) : undefined;
  if (document) edit.document = document;
  return {
    ...state,
    pending: edit,
    status: 'pending',
    message: undefined,
    conflicts: undefined,
    conflictDocument: undefined,
    resolvedAt: state.resolvedAt + 1,
    ...(document ? { replaced: document, replacedAt: state.replacedAt + 1 } : {}),
  };
}

/** The update_page change of a batch for these edits, based on the state's revision. */
export function updatePageChange(pageId: string, base: string, edit: PageEdit): Record<string, unknown> {
  const { document, ...fields } = edit;
  return { operation: 'update_page', page: pageId, baseRevision: base, ...fields, ...(document ? { document: { document } } : {}) };
}

/** What the status line says, and whether it is news to announce. */
export function statusText(state: Pick<SaveState, 'status' | 'message'>): string {
  switch (state.status) {
    case 'idle':
      return 'All changes saved';
    case 'pending':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return 'Saved';
    case 'offline':
      return 'Offline – changes kept';
    case 'error':
      return `Not saved: ${state.message ?? 'the server refused the changes'}`;
    case 'conflict':
      return 'Not saved: someone else changed the same part';
  }
}

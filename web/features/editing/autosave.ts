import { ApiError, errorMessage } from '../../api/client.ts';
import type { Document } from '../../../src/features/content/document/types.ts';
import { readDraft, writeDraft, type UnsavedDraft } from './local-drafts.ts';
import { initialSaveState, saveReducer, shouldSend, unsavedEdits, updatePageChange, type PageEdit, type SaveConflict, type SaveEvent, type SaveState } from './save-queue.ts';

/** About a second after typing stops, as GitBook does: long enough not to send every keystroke. */
export const SAVE_DELAY_MS = 1000;
/** Offline, or the server out of reach: tried again this often, besides the browser's `online` event. */
export const RETRY_OFFLINE_MS = 5000;

/** Sends one page's update_page change where the edits go; answers the revision written and the merged document, if any. */
export type SaveTransport = (change: Record<string, unknown>, options: { keepalive: boolean }) => Promise<{ revision: string; merged?: Document }>;

/**
 * Which editors of this browser are still open, across its tabs: an editor holds its presence while it is open, and
 * another can be told when it is gone — closed, crashed, or navigated away, whether or not its last words (the copy
 * marked `closed` as it closed) ever arrived. use-autosave.ts holds it with the Web Locks API.
 */
export interface EditorPresence {
  /** Holds `tab`'s presence; answers its release. */
  hold(tab: string): () => void;
  /** Calls back once the editor `tab` is gone; answers a cancel. */
  whenGone(tab: string, callback: () => void): () => void;
}

interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Drives the save queue of one page: a timer after each edit, one request at a time, the browser's copy of what is
 * unsaved kept in step, and a flush when asked (the tab hidden or closed, back online). React reads it through
 * subscribe/snapshot (useSyncExternalStore).
 */
export class Autosave {
  private state: SaveState;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  /** This editor, as its drafts name it. */
  readonly tab = newTabId();
  /**
   * Editors whose kept drafts this one took in, with the last copy taken (the same copy is not sent twice): their
   * copy in the browser is this one's to forget once saved.
   */
  private readonly adopted = new Map<string, string>();
  /** Other editors of the page whose drafts were seen: the last copy of each, and the cancel of its watch. */
  private readonly others = new Map<string, { draft: UnsavedDraft; cancel: () => void }>();
  /** A closed tab's draft found while this editor had edits of its own unsaved: taken in once they are saved. */
  private waiting: UnsavedDraft | null = null;
  private closing = false;
  /** The edits this editor found kept on opening (the header shows them). */
  readonly keptOnOpen: UnsavedDraft | null;

  constructor(
    pageId: string,
    base: string,
    private readonly transport: SaveTransport,
    private readonly storage: { key: string; store: Storage },
    unsaved: UnsavedDraft | null = null,
    private readonly delayMs = SAVE_DELAY_MS,
    private readonly presence: EditorPresence | null = null,
  ) {
    this.state = initialSaveState(pageId, unsaved?.base ?? base, unsaved?.edit ?? null);
    this.keptOnOpen = unsaved;
    if (unsaved) this.adopted.set(unsaved.tab ?? '', copyOf(unsaved));
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.state;

  edit(edit: PageEdit): void {
    this.dispatch({ type: 'edit', edit });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  resolve(choices: ReadonlyMap<number, 'mine' | 'theirs'>): void {
    this.dispatch({ type: 'resolve', choices });
    void this.flush();
  }

  /**
   * A draft another tab left as it closed, seen after this editor opened (browsers hand a closing tab's last
   * writes to the others late, through the browser process): its edits are shown and sent here. Until now the
   * next editor sometimes opened before they arrived, and removed them unread at its own first save.
   */
  adopt(draft: UnsavedDraft): void {
    if (draft.tab === this.tab || !draft.closed) return;
    if (this.adopted.get(draft.tab ?? '') === copyOf(draft)) return;
    if (unsavedEdits(this.state) || this.state.status === 'conflict') {
      this.waiting = draft;
      return;
    }
    this.waiting = null;
    this.adopted.set(draft.tab ?? '', copyOf(draft));
    this.dispatch({ type: 'adopt', base: draft.base, edit: draft.edit });
    void this.flush();
  }

  /**
   * Another editor's draft, seen in this browser's storage (a `storage` event). Left as it closed, it is taken in
   * now. Still being written, it is that editor's to send; it is watched, and once that editor is gone the last copy
   * it left is taken in — a closing tab's last write, the one marked `closed`, is not always delivered (Chromium
   * may end a closing tab's renderer before it goes out, more often under load).
   */
  noticed(draft: UnsavedDraft): void {
    if (draft.tab === this.tab) return;
    if (draft.closed) return this.adopt(draft);
    const tab = draft.tab ?? '';
    const watched = this.others.get(tab);
    if (watched) {
      watched.draft = draft;
      return;
    }
    if (!this.presence) return;
    const other = { draft, cancel: () => {} };
    this.others.set(tab, other);
    other.cancel = this.presence.whenGone(tab, () => {
      this.others.delete(tab);
      // The copy in the browser when newer (the same editor's), else the last one seen: a later write of this
      // editor's own may have taken the place, the page having one copy in the browser.
      const stored = readDraft(this.storage.store, this.storage.key);
      const left = stored && stored.tab === draft.tab ? stored : other.draft;
      this.adopt({ ...left, closed: true });
    });
  }

  /** This editor is open until the answer is called: other editors of the page are told when it is gone, and it watches theirs. */
  open(): () => void {
    const release = this.presence?.hold(this.tab) ?? (() => {});
    return () => {
      release();
      this.stopWatching();
    };
  }

  /** The tab is closing: what is unsaved is marked as left for the next editor of the page (after the last flush). */
  leave(): void {
    this.closing = true;
    void this.flush({ keepalive: true });
    this.keep();
  }

  /** The tab came back from the browser's back-forward cache: its edits are its own again. */
  back(): void {
    this.closing = false;
    this.keep();
  }

  online(): void {
    this.dispatch({ type: 'online' });
    void this.flush();
  }

  /** Sends what waits now. `keepalive` lets the request outlive the page (pagehide, visibilitychange). */
  async flush(options: { keepalive?: boolean } = {}): Promise<void> {
    clearTimeout(this.timer);
    if (!shouldSend(this.state)) return;
    this.dispatch({ type: 'send' });
    const { pageId, base, inFlight } = this.state;
    try {
      const answer = await this.transport(updatePageChange(pageId, base, inFlight!), { keepalive: options.keepalive ?? false });
      this.dispatch({ type: 'saved', revision: answer.revision, ...(answer.merged ? { merged: answer.merged } : {}) });
    } catch (error) {
      this.dispatch(failure(error));
      // The `online` event comes only for the browser's own connection, not for a server that was out of reach.
      if (this.state.status === 'offline') this.timer = setTimeout(() => this.online(), RETRY_OFFLINE_MS);
      return;
    }
    // Edits made while the request was under way go next; a closed tab's, found meanwhile, once this one's are saved.
    if (shouldSend(this.state)) this.timer = setTimeout(() => void this.flush(), this.delayMs);
    else if (this.waiting) this.adopt(this.waiting);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
    this.stopWatching();
  }

  private stopWatching(): void {
    for (const other of this.others.values()) other.cancel();
    this.others.clear();
  }

  private dispatch(event: SaveEvent): void {
    const next = saveReducer(this.state, event);
    if (next === this.state) return;
    this.state = next;
    this.keep();
    for (const listener of this.listeners) listener();
  }

  /** The browser's copy of what is unsaved, in step with the state. */
  private keep(): void {
    const unsaved = unsavedEdits(this.state);
    if (unsaved) {
      const draft: UnsavedDraft = { base: this.state.base, edit: unsaved, at: new Date().toISOString(), tab: this.tab, ...(this.closing ? { closed: true } : {}) };
      writeDraft(this.storage.store, this.storage.key, draft);
    } else if (this.owns(readDraft(this.storage.store, this.storage.key))) {
      writeDraft(this.storage.store, this.storage.key, null);
    }
  }

  /** Whether a stored draft is this editor's to forget: its own, or one it took in. Another tab's is left alone. */
  private owns(draft: UnsavedDraft | null): boolean {
    return draft !== null && (draft.tab === this.tab || this.adopted.has(draft.tab ?? ''));
  }
}

/** A draft's edits and base, to tell the same copy arriving twice. */
function copyOf(draft: UnsavedDraft): string {
  return JSON.stringify([draft.base, draft.edit]);
}

function newTabId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** A failed save, told apart: no network (kept, sent when back online), a conflict to show, or the API's refusal. */
export function failure(error: unknown): SaveEvent {
  if (error instanceof ApiError && error.status === 0) return { type: 'offline' };
  if (error instanceof TypeError) return { type: 'offline' };
  const body = error instanceof ApiError ? (error.body as { revision?: string; conflicts?: SaveConflict[]; documents?: { page: string; document: Document }[] } | undefined) : undefined;
  if (error instanceof ApiError && error.status === 409 && body?.conflicts && body.revision) {
    const document = body.documents?.[0]?.document;
    return { type: 'conflict', revision: body.revision, message: error.message, conflicts: body.conflicts, ...(document ? { document } : {}) };
  }
  return { type: 'failed', message: errorMessage(error) };
}

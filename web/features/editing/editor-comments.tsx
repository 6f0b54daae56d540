import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Document } from '../../../src/features/content/document/types.ts';
import { meQuery, spaceQuery } from '../../api/queries.ts';
import { ErrorNote } from '../../ui/states.tsx';
import { changeRequestComments, pageThreadsQuery, spaceComments, type Thread } from '../change-requests/comment-place.ts';
import { CommentThread, NewComment, OutdatedThreads, type CommentTarget } from '../change-requests/threads.tsx';
import { blockElements, blockIndexOf, blockLabel } from './block-at-selection.ts';
import { commentRanges } from './comment-anchors.ts';
import type { CommentRange } from '../editor/contract.ts';
import type { EditTarget } from './edit-target.ts';
import '../review/review.css';

/** Space between two threads' groups that would overlap, in pixels. */
const GAP = 8;

/**
 * The comment threads of the page being edited, beside the blocks they name (`target.node`): the change request's
 * discussion when the edits go to one, the space's otherwise. A "Comment" button comments on the block the
 * selection is in (quoting the selected text, whose words the editor then highlights: a click on them shows their
 * comment), threads whose block is gone are listed as outdated, and comments on the whole page below the editor.
 */
export function EditorComments(props: {
  spaceId: string;
  target: EditTarget;
  pageId: string;
  document: RefObject<Document>;
  /** The editor, given the words to highlight and what a click on them does. */
  /** The editor, given the words to highlight, what a click on them does, and how it starts a comment (none: no right to comment). */
  children: (ranges: { commentRanges: CommentRange[]; onCommentRange(ids: string[]): void; onComment?: () => void }) => ReactNode;
}) {
  const { spaceId, target, pageId, document, children } = props;
  const place = useMemo(() => (target.kind === 'live' ? spaceComments(spaceId) : changeRequestComments(spaceId, String(target.number))), [spaceId, target]);
  const threads = useQuery(pageThreadsQuery(place, pageId));
  const me = useQuery(meQuery());
  const space = useQuery(spaceQuery(spaceId));
  const mayComment = !!(space.data as { permissions?: { comment?: boolean } } | undefined)?.permissions?.comment;
  const userId = me.data?.id ?? '';
  const editorColumn = useRef<HTMLDivElement>(null);
  const rail = useRef<HTMLDivElement>(null);
  // The comment whose words were clicked (or whose thread has the focus): its words stand out in the page.
  const [active, setActive] = useState<string | null>(null);
  const ranges = useMemo(() => commentRanges(threads.data?.items ?? [], active), [threads.data, active]);
  const showThread = useCallback((ids: string[]) => {
    const id = ids[0]!;
    setActive(id);
    const thread = rail.current?.querySelector<HTMLElement>(`[data-thread="${CSS.escape(id)}"]`);
    thread?.scrollIntoView({ block: 'nearest' });
    thread?.focus({ preventScroll: true });
  }, []);
  // The editor is drawn again only when what it is given changes, not as the rail's layout follows the typing.
  // The selection toolbar's "Comment" starts the very comment the rail's button does.
  const starter = useRef<(() => void) | null>(null);
  const startComment = useCallback(() => starter.current?.(), []);
  const editor = useMemo(
    () => children({ commentRanges: ranges, onCommentRange: showThread, ...(mayComment ? { onComment: startComment } : {}) }),
    [children, ranges, showThread, mayComment, startComment],
  );
  // Where each block with threads starts, from the top of the rail; and the keys the page has now.
  const [layout, setLayout] = useState<{ tops: Map<string, number>; keys: Set<string> }>({ tops: new Map(), keys: new Set() });

  const byNode = useMemo(() => {
    const map = new Map<string, Thread[]>();
    for (const thread of threads.data?.items ?? []) {
      const node = thread.target.node?.id ?? '';
      map.set(node, [...(map.get(node) ?? []), thread]);
    }
    return map;
  }, [threads.data]);

  // The blocks move as the person types: measured again after each change of the editor's DOM and of its size.
  useEffect(() => {
    const column = editorColumn.current;
    if (!column) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const root = column.querySelector('.ProseMirror');
      const base = rail.current?.getBoundingClientRect().top ?? 0;
      const nodes = document.current?.nodes ?? [];
      const keys = new Set(nodes.flatMap((block) => (block.key ? [block.key] : [])));
      const tops = new Map<string, number>();
      if (root) {
        blockElements(root).forEach((element, i) => {
          const key = nodes[i]?.key;
          if (key && byNode.has(key)) tops.set(key, Math.round(element.getBoundingClientRect().top - base));
        });
      }
      setLayout((old) => (sameLayout(old, tops, keys) ? old : { tops, keys }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    const mutations = new MutationObserver(schedule);
    mutations.observe(column, { childList: true, subtree: true, characterData: true });
    const sizes = new ResizeObserver(schedule);
    sizes.observe(column);
    schedule();
    return () => {
      mutations.disconnect();
      sizes.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [byNode, document]);

  // Groups that would overlap are pushed down, in the order of their blocks.
  useLayoutEffect(() => {
    let bottom = 0;
    for (const group of rail.current?.querySelectorAll<HTMLElement>('[data-thread-block]') ?? []) {
      const top = Math.max(Number(group.dataset.top), bottom);
      group.style.top = `${top}px`;
      bottom = top + group.offsetHeight + GAP;
    }
    if (rail.current) rail.current.style.minHeight = `${bottom}px`;
  });

  /** The block the selection is in, when it is in the editor; the whole page otherwise. */
  const selectedBlock = (): CommentTarget => {
    const root = editorColumn.current?.querySelector('.ProseMirror');
    const selection = window.getSelection();
    const index = root && selection?.anchorNode ? blockIndexOf(root, selection.anchorNode) : -1;
    const block = index >= 0 ? document.current?.nodes[index] : undefined;
    if (!block) return { what: 'the page' };
    const quote = selection && !selection.isCollapsed ? selection.toString() : '';
    // A block made since the page was opened has no key until the server gives it one: the comment is on the page.
    if (!block.key) return { what: `the page (${blockLabel(block)} is new; comment on it once the page is opened again)`, quote };
    return { node: block.key, what: blockLabel(block), quote };
  };

  const placed = [...layout.tops.entries()].sort((a, b) => a[1] - b[1]);
  const onPage = byNode.get('') ?? [];
  const outdated = threads.data ? [...byNode.entries()].filter(([node]) => node !== '' && layout.keys.size > 0 && !layout.keys.has(node)).flatMap(([, list]) => list) : [];
  return (
    <div className="editor-with-comments">
      <div className="editor-column" ref={editorColumn}>
        {editor}
      </div>
      <aside className="comment-rail" aria-label="Comments">
        <div className="comment-rail-head">
          {mayComment ? <NewComment place={place} pageId={pageId} what="the selected block" target={selectedBlock} starter={starter} /> : null}
          <ErrorNote error={threads.error} />
        </div>
        <div className="comment-rail-threads" ref={rail}>
          {placed.map(([key, top]) => (
            <div key={key} className="comment-rail-group" data-thread-block={key} data-top={top}>
              {(byNode.get(key) ?? []).map((thread) => (
                <div key={thread.id} data-thread={thread.id} tabIndex={-1} className={thread.id === active ? 'thread-shown' : undefined} onFocus={() => setActive(thread.id)}>
                  <CommentThread place={place} thread={thread} userId={userId} />
                </div>
              ))}
            </div>
          ))}
        </div>
      </aside>
      {onPage.length > 0 || outdated.length > 0 ? (
        <div className="comment-rail-rest">
          {onPage.length > 0 ? (
            <section aria-label="Comments on the page">
              <h2>Comments on the page</h2>
              {onPage.map((thread) => <CommentThread key={thread.id} place={place} thread={thread} userId={userId} />)}
            </section>
          ) : null}
          {outdated.length > 0 ? (
            <OutdatedThreads place={place} threads={outdated} userId={userId} Heading="h2" />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function sameLayout(old: { tops: Map<string, number>; keys: Set<string> }, tops: Map<string, number>, keys: Set<string>): boolean {
  if (old.tops.size !== tops.size || old.keys.size !== keys.size) return false;
  for (const [key, top] of tops) if (old.tops.get(key) !== top) return false;
  for (const key of keys) if (!old.keys.has(key)) return false;
  return true;
}

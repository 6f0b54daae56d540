import { DndContext, KeyboardSensor, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import {
  faArrowDown, faArrowLeft, faArrowRight, faArrowUp, faCopy, faEllipsis, faEye, faEyeSlash, faGripVertical, faPen, faPlus, faTrash, faXmark, type IconDefinition,
} from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '../../ui/menus.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import type { PageIndex, TreePage } from './page-tree.ts';
import {
  deleteChange, dropChange, duplicateChange, moveChange, newGroupChange, newPageChange, renameChange, undeleteChanges, visibilityChange, type Move, type TreeChange,
} from './tree-changes.ts';

export interface TreeEditing {
  /** Sends a batch where the space's edits go; resolves to the revision written and the pages created. */
  write(changes: TreeChange[]): Promise<{ revision: string; created: string[] }>;
  /** A page's document as it is now (for a duplicate). */
  documentOf(pageId: string): Promise<unknown>;
  /** The app path that edits a page. */
  editPath(pageId: string): string;
}

/**
 * The page tree beside the page being edited: new page or group, and for each page a menu to rename, add a
 * sub-page, duplicate, hide or show, move by a step (keyboard and menu), or delete with an undo. Pages are also
 * dragged onto another page's place (pointer or keyboard: space to lift, arrows, space to drop).
 */
export function PageTreeEditor({ pages, index, currentId, revision, editing, onChanged, onCreated }: {
  pages: TreePage[];
  index: PageIndex;
  currentId?: string;
  /** The revision the tree shows, restored by an undo of a delete. */
  revision: string;
  editing: TreeEditing;
  onChanged(): void;
  onCreated(pageId: string): void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [undo, setUndo] = useState<{ title: string; changes: TreeChange[] } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));

  const run = async (changes: TreeChange[] | null, done: string, after?: (result: { revision: string; created: string[] }) => void) => {
    if (!changes || changes.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const result = await editing.write(changes);
      setAnnouncement(done);
      onChanged();
      after?.(result);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const remove = (page: TreePage) =>
    void run([deleteChange(page)], `Deleted “${page.title}”`, () => setUndo({ title: page.title, changes: undeleteChanges(page, revision) }));

  const onDragEnd = (event: DragEndEvent) => {
    const dragged = index.byId.get(String(event.active.id));
    const over = event.over ? index.byId.get(String(event.over.id)) : undefined;
    if (!dragged || !over) return;
    const change = dropChange(index, dragged, over);
    if (!change) return setAnnouncement(`“${dragged.title}” cannot go there`);
    void run([change], `Moved “${dragged.title}” before “${over.title}”`);
  };

  const renderPages = (list: TreePage[]) =>
    list.map((page) => (
      <TreeItem key={page.id} page={page} currentId={currentId} editPath={editing.editPath(page.id)} renaming={renaming === page.id}>
        {renaming === page.id ? (
          <RenameForm
            page={page}
            onCancel={() => setRenaming(null)}
            onRename={(title) => {
              setRenaming(null);
              void run([renameChange(page, title)], `Renamed to “${title}”`);
            }}
          />
        ) : (
          <PageMenu
            page={page}
            busy={busy}
            canMove={(move) => moveChange(index, page, move) !== null}
            onMove={(move) => void run([moveChange(index, page, move)!], `Moved “${page.title}” ${move}`)}
            onRename={() => setRenaming(page.id)}
            onAddSubPage={() => void run([newPageChange(page.id)], 'Added a page', (r) => r.created[0] && onCreated(r.created[0]))}
            onDuplicate={() => void editing.documentOf(page.id).then((document) => run([duplicateChange(index, page, document)], `Duplicated “${page.title}”`), setError)}
            onToggleHidden={() => void run([visibilityChange(page, !page.hidden)], page.hidden ? `“${page.title}” is shown` : `“${page.title}” is hidden`)}
            onDelete={() => remove(page)}
          />
        )}
        {(page.pages ?? []).length > 0 ? <ul className="tree-children">{renderPages(page.pages!)}</ul> : null}
      </TreeItem>
    ));

  return (
    <nav className="page-tree page-tree-editor" aria-label="Pages">
      <div className="tree-actions">
        <Button size="sm" icon={faPlus} disabled={busy} onClick={() => void run([newPageChange(null)], 'Added a page', (r) => r.created[0] && onCreated(r.created[0]))}>
          New page
        </Button>
        <Button size="sm" icon={faPlus} disabled={busy} onClick={() => void run([newGroupChange()], 'Added a group')}>
          New group
        </Button>
      </div>
      <ErrorNote error={error} />
      <DndContext sensors={sensors} onDragEnd={onDragEnd} accessibility={{ announcements: dragAnnouncements(index) }}>
        <ul className="tree">{renderPages(pages)}</ul>
      </DndContext>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {undo ? (
        <div className="toast" role="status">
          Deleted “{undo.title}”.{' '}
          <Button
            variant="ghost"
            size="sm"
            disabled={busy}
            onClick={() => {
              const { changes, title } = undo;
              setUndo(null);
              void run(changes, `“${title}” is back`);
            }}
          >
            Undo
          </Button>
          <IconButton icon={faXmark} label="Dismiss" size="sm" onClick={() => setUndo(null)} />
        </div>
      ) : null}
    </nav>
  );
}

function TreeItem({ page, currentId, editPath, renaming, children }: { page: TreePage; currentId?: string; editPath: string; renaming: boolean; children: ReactNode }) {
  const drag = useDraggable({ id: page.id, attributes: { roleDescription: 'draggable page' } });
  const drop = useDroppable({ id: page.id });
  const emoji = emojiCharacter(page.emoji);
  const current = page.id === currentId;
  const label = (
    <>
      {emoji ? <span className="tree-emoji" aria-hidden="true">{emoji}</span> : null}
      {page.title}
      {page.hidden ? <span className="tree-hidden"> (hidden)</span> : null}
    </>
  );
  return (
    <li ref={drop.setNodeRef} className={`${page.type === 'group' ? 'tree-group' : 'tree-parent'}${drop.isOver ? ' drop-over' : ''}${drag.isDragging ? ' dragging' : ''}`}>
      <div className="tree-row">
        <button type="button" ref={drag.setNodeRef} className="drag-handle" {...drag.listeners} {...drag.attributes} aria-label={`Drag “${page.title}”`}>
          <Icon icon={faGripVertical} />
        </button>
        {renaming ? null : page.type === 'group' ? (
          <p className="tree-group-title">{label}</p>
        ) : (
          <Link to={editPath} className={current ? 'tree-link current' : 'tree-link'} aria-current={current ? 'page' : undefined}>
            {label}
          </Link>
        )}
      </div>
      {children}
    </li>
  );
}

function RenameForm({ page, onRename, onCancel }: { page: TreePage; onRename(title: string): void; onCancel(): void }) {
  const [title, setTitle] = useState(page.title);
  return (
    <form
      className="tree-rename"
      onSubmit={(e) => {
        e.preventDefault();
        if (title.trim()) onRename(title.trim());
      }}
    >
      <label>
        <span className="sr-only">New title of “{page.title}”</span>
        <input value={title} autoFocus maxLength={500} onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && onCancel()} />
      </label>
      <Button type="submit" size="sm" disabled={!title.trim()}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

function PageMenu(props: {
  page: TreePage;
  busy: boolean;
  canMove(move: Move): boolean;
  onMove(move: Move): void;
  onRename(): void;
  onAddSubPage(): void;
  onDuplicate(): void;
  onToggleHidden(): void;
  onDelete(): void;
}) {
  const { page, busy } = props;
  const item = (label: string, icon: IconDefinition, action: () => void, enabled = true) => (
    <DropdownMenuItem icon={icon} disabled={busy || !enabled} onSelect={action}>
      {label}
    </DropdownMenuItem>
  );
  return (
    <DropdownMenu label={`Actions for “${page.title}”`} trigger={<IconButton icon={faEllipsis} label={`Actions for “${page.title}”`} size="sm" className="page-menu" />}>
      {item('Rename', faPen, props.onRename)}
      {page.type !== 'link' && page.type !== 'computed' ? item('Add a sub-page', faPlus, props.onAddSubPage) : null}
      {page.type === 'document' ? item('Duplicate', faCopy, props.onDuplicate) : null}
      {item(page.hidden ? 'Show' : 'Hide', page.hidden ? faEye : faEyeSlash, props.onToggleHidden)}
      <DropdownMenuSeparator />
      {item('Move up', faArrowUp, () => props.onMove('up'), props.canMove('up'))}
      {item('Move down', faArrowDown, () => props.onMove('down'), props.canMove('down'))}
      {item('Move into the page above', faArrowRight, () => props.onMove('in'), props.canMove('in'))}
      {item('Move out of its parent', faArrowLeft, () => props.onMove('out'), props.canMove('out'))}
      <DropdownMenuSeparator />
      <DropdownMenuItem icon={faTrash} danger disabled={busy} onSelect={props.onDelete}>
        Delete
      </DropdownMenuItem>
    </DropdownMenu>
  );
}

function dragAnnouncements(index: PageIndex) {
  const title = (id: string | number | undefined) => (id === undefined ? '' : (index.byId.get(String(id))?.title ?? ''));
  return {
    onDragStart: ({ active }: { active: { id: string | number } }) => `Picked up “${title(active.id)}”. Use the arrow keys to move it over another page, space to drop it before that page.`,
    onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `“${title(active.id)}” is over “${title(over.id)}”.` : `“${title(active.id)}” is over no page.`,
    onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `“${title(active.id)}” was dropped before “${title(over.id)}”.` : `“${title(active.id)}” was dropped nowhere.`,
    onDragCancel: ({ active }: { active: { id: string | number } }) => `Moving “${title(active.id)}” was cancelled.`,
  };
}

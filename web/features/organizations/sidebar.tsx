import { useQuery } from '@tanstack/react-query';
import { useState, type DragEvent, type FormEvent } from 'react';
import { NavLink } from 'react-router';
import { faArrowRightArrowLeft, faBook, faEllipsis, faFolder, faPen, faPlus, faTrash } from '@fortawesome/free-solid-svg-icons';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { errorMessage } from '../../api/client.ts';
import { collectionsQuery, spacesQuery } from '../../api/queries.ts';
import type { Collection } from '../../api/types.ts';
import { Button, IconButton } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuCheckItem, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuSub } from '../../ui/menus.tsx';
import { Select } from '../../ui/select.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { fieldOfMessage } from '../../ui/use-submit.ts';
import { forgetSpace } from '../home/recent-spaces.ts';
import { contentTree, moveTargets, type TreeNode } from './content-tree.ts';
import { useSidebarActions } from './sidebar-actions.ts';

type Item = { kind: 'space' | 'collection'; id: string; title: string };
const DRAG_TYPE = 'application/x-quire-item';
const TOP = 'top';

/**
 * An organization's collections and spaces: create, rename, move (drag a row onto a collection or onto "Top
 * level", or choose in its menu: the keyboard way) and delete, a space with undo; the trash screen keeps it 7 days.
 */
export function Sidebar({ orgId }: { orgId: string }) {
  const collections = useQuery(collectionsQuery(orgId));
  const spaces = useQuery(spacesQuery(orgId));
  const actions = useSidebarActions(orgId);
  const [creating, setCreating] = useState<'space' | 'collection' | null>(null);
  const [deleted, setDeleted] = useState<Item | null>(null);
  const [error, setError] = useState<{ at: string; message: string } | null>(null);
  const [confirming, setConfirming] = useState<Item | null>(null);

  const run = async (at: string, action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError({ at, message: errorMessage(e) });
      return false;
    }
  };
  const remove = async (item: Item) => {
    if (await run(item.id, () => actions.remove.mutateAsync(item))) {
      if (item.kind === 'space') forgetSpace(item.id);
      setDeleted(item.kind === 'space' ? item : null);
    }
  };
  // A space deleted comes back with Undo; a collection's deletion asks first (its spaces go to the trash with it).
  const askOrRemove = (item: Item) => (item.kind === 'collection' ? setConfirming(item) : void remove(item));
  const undo = async () => {
    if (deleted && (await run('undo', () => actions.restore.mutateAsync(deleted.id)))) setDeleted(null);
  };
  const move = (item: Item, parent: string | null) => run(item.id, () => actions.move.mutateAsync({ kind: item.kind, id: item.id, parent }));

  const onDropTop = (event: DragEvent) => {
    const item = draggedItem(event);
    if (item) void move(item, null);
  };

  const loading = collections.isPending || spaces.isPending;
  const tree = collections.data && spaces.data ? contentTree(collections.data, spaces.data) : [];
  return (
    <div className="org-tree">
      <div className="sidebar-buttons">
        <Button size="sm" icon={faPlus} onClick={() => setCreating('space')}>New space</Button>
        <Button size="sm" icon={faPlus} onClick={() => setCreating('collection')}>New collection</Button>
      </div>
      {creating ? (
        <CreateForm
          kind={creating}
          collections={collections.data ?? []}
          onCancel={() => setCreating(null)}
          onCreate={async (title, parent) => {
            const mutation = creating === 'space' ? actions.createSpace : actions.createCollection;
            return run('create', () => mutation.mutateAsync({ title, ...(parent ? { parent } : {}) })).then((ok) => {
              if (ok) setCreating(null);
              return ok;
            });
          }}
          error={error?.at === 'create' ? error.message : undefined}
        />
      ) : null}
      {deleted ? (
        <div className="toast" role="status">
          {deleted.title} moved to the trash.{' '}
          <Button variant="ghost" size="sm" onClick={undo}>Undo</Button>
          {error?.at === 'undo' ? <span className="error-note">{error.message}</span> : null}
        </div>
      ) : null}
      {loading ? <Skeleton lines={6} label="Loading spaces" /> : null}
      <ErrorNote error={collections.error ?? spaces.error} />
      <p className="drop-top" onDragOver={allowDrop} onDrop={onDropTop}>Top level</p>
      <ul className="tree" aria-label="Collections and spaces">
        {tree.map((node) => (
          <TreeRow key={nodeId(node)} node={node} orgId={orgId} collections={collections.data ?? []} onMove={move} onRename={(item, title) => run(item.id, () => actions.rename.mutateAsync({ ...item, title }))} onRemove={askOrRemove} error={error} />
        ))}
      </ul>
      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (open) return;
          setConfirming(null);
          actions.remove.reset();
        }}
        title={`Delete the collection ${confirming?.title ?? ''}?`}
        description="Its spaces go to the trash, where they stay 7 days."
        confirm="Delete collection"
        error={actions.remove.error}
        onConfirm={() => actions.remove.mutateAsync(confirming!)}
      />
      {!loading && tree.length === 0 ? <p>No spaces yet. Create the first one.</p> : null}
      {/* No count here: reading the trash on every screen would slow the first one; its screen lists it. */}
      <NavLink to={`/o/${orgId}/trash`} className="trash-link">Trash</NavLink>
    </div>
  );
}

const nodeId = (node: TreeNode) => (node.kind === 'collection' ? node.collection.id : node.space.id);
const allowDrop = (event: DragEvent) => {
  if (event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
};
function draggedItem(event: DragEvent): Item | null {
  event.preventDefault();
  try {
    return JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as Item;
  } catch {
    return null;
  }
}

interface RowProps {
  node: TreeNode;
  orgId: string;
  collections: Collection[];
  onMove: (item: Item, parent: string | null) => Promise<boolean>;
  onRename: (item: Item, title: string) => Promise<boolean>;
  onRemove: (item: Item) => void;
  error: { at: string; message: string } | null;
}

function TreeRow({ node, orgId, collections, onMove, onRename, onRemove, error }: RowProps) {
  const item: Item = node.kind === 'collection' ? { kind: 'collection', id: node.collection.id, title: node.collection.title } : { kind: 'space', id: node.space.id, title: node.space.title };
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(item.title);
  const parent = (node.kind === 'collection' ? node.collection.parent : node.space.parent) ?? null;
  const to = node.kind === 'collection' ? `/o/${orgId}/c/${item.id}` : `/o/${orgId}/s/${item.id}`;
  const emoji = node.kind === 'space' ? emojiCharacter(node.space.emoji) : null;
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(item));
    event.dataTransfer.effectAllowed = 'move';
  };
  const onDrop = (event: DragEvent) => {
    event.stopPropagation();
    const dragged = draggedItem(event);
    if (dragged && dragged.id !== item.id) void onMove(dragged, item.id);
  };
  const submitRename = async (event: FormEvent) => {
    event.preventDefault();
    if (await onRename(item, title)) setRenaming(false);
  };
  return (
    <li className={node.kind === 'collection' ? 'tree-collection' : 'tree-space'}>
      <div className="tree-row" draggable onDragStart={onDragStart} {...(node.kind === 'collection' ? { onDragOver: allowDrop, onDrop } : {})}>
        {renaming ? (
          <form onSubmit={submitRename} className="inline-form">
            <input aria-label={`New title of ${item.title}`} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus maxLength={50} />
            <Button type="submit" size="sm">Save</Button>
            <Button variant="ghost" size="sm" onClick={() => setRenaming(false)}>Cancel</Button>
          </form>
        ) : (
          <NavLink to={to} className="tree-link">
            <span aria-hidden="true" className="tree-icon">{emoji ?? <Icon icon={node.kind === 'collection' ? faFolder : faBook} />}</span>
            {item.title}
          </NavLink>
        )}
        <DropdownMenu label={`Actions for ${item.title}`} trigger={<IconButton icon={faEllipsis} label={`Actions for ${item.title}`} size="sm" className="row-menu" />}>
          <DropdownMenuItem icon={faPen} onSelect={() => (setTitle(item.title), setRenaming(true))}>Rename</DropdownMenuItem>
          <DropdownMenuSub label="Move to" icon={faArrowRightArrowLeft}>
            <DropdownMenuCheckItem checked={parent === null} onSelect={() => void onMove(item, null)}>Top level</DropdownMenuCheckItem>
            {moveTargets(collections, item).map((c) => (
              <DropdownMenuCheckItem key={c.id} checked={parent === c.id} onSelect={() => void onMove(item, c.id)}>{c.title}</DropdownMenuCheckItem>
            ))}
          </DropdownMenuSub>
          <DropdownMenuSeparator />
          <DropdownMenuItem icon={faTrash} danger onSelect={() => onRemove(item)}>Delete {item.kind}</DropdownMenuItem>
        </DropdownMenu>
      </div>
      {error?.at === item.id ? <p role="alert" className="error-note">{error.message}</p> : null}
      {node.kind === 'collection' && node.children.length > 0 ? (
        <ul className="tree-children">
          {node.children.map((child) => (
            <TreeRow key={nodeId(child)} node={child} orgId={orgId} collections={collections} onMove={onMove} onRename={onRename} onRemove={onRemove} error={error} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function CreateForm(props: { kind: 'space' | 'collection'; collections: Collection[]; onCreate: (title: string, parent: string) => Promise<boolean>; onCancel: () => void; error?: string }) {
  const [title, setTitle] = useState('');
  const [parent, setParent] = useState(TOP);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await props.onCreate(title, parent === TOP ? '' : parent);
    setBusy(false);
  };
  // A refusal naming the title shows beside it ("title must NOT have fewer than 1 characters"), the rest below.
  const named = props.error ? fieldOfMessage(props.error) : undefined;
  return (
    <form className="create-form" onSubmit={submit} aria-label={`New ${props.kind}`}>
      <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={50} autoFocus error={named?.field === 'title' ? named.text : undefined} />
      {/* The listbox cannot hold an empty value, so the top level is its own word. */}
      <Select label="In" value={parent} onValueChange={setParent} options={[{ value: TOP, label: 'Top level' }, ...props.collections.map((c) => ({ value: c.id, label: c.title }))]} />
      {props.error && named?.field !== 'title' ? <p role="alert" className="error-note">{props.error}</p> : null}
      <div className="form-buttons">
        <Button type="submit" variant="primary" loading={busy}>Create {props.kind}</Button>
        <Button variant="ghost" onClick={props.onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

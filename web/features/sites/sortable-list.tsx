import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useState, type ReactNode } from 'react';
import { faGripVertical } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '../../ui/icon.tsx';
import { moved } from './structure-order.ts';

/**
 * A list whose rows are dragged to a new place, with the mouse or the keyboard (focus a row's handle, Space,
 * arrows, Space). The row moves at once; `onMove` asks the server and the list follows its answer.
 */
export function SortableList<T>({ label, items, idOf, nameOf, onMove, fixed, children }: {
  label: string;
  items: readonly T[];
  idOf: (item: T) => string;
  nameOf: (item: T) => string;
  onMove: (ids: string[], item: string, over: string) => Promise<unknown>;
  /** Rows the server cannot move (sortSiteStructure has no pointer for them): no handle, and no place to drop on. */
  fixed?: (item: T) => boolean;
  children: (item: T) => ReactNode;
}) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  // While a move is on its way, the order the person made; the server's order otherwise.
  const [pending, setPending] = useState<T[]>();
  const shown = pending ?? items;
  const ids = shown.map(idOf);
  const nameOfId = (id: string) => nameOf(shown.find((item) => idOf(item) === id)!);
  const end = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    setPending(moved(shown, from, to));
    try {
      await onMove(ids, String(active.id), String(over.id));
    } finally {
      setPending(undefined);
    }
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={(event) => void end(event)}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up ${nameOfId(String(active.id))}.`,
          onDragOver: ({ active, over }) => (over ? `${nameOfId(String(active.id))} is over ${nameOfId(String(over.id))}.` : ''),
          onDragEnd: ({ active, over }) => (over ? `${nameOfId(String(active.id))} was dropped on the place of ${nameOfId(String(over.id))}.` : ''),
          onDragCancel: ({ active }) => `Moving ${nameOfId(String(active.id))} was cancelled.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className="sortable-list" aria-label={label}>
          {shown.map((item) => (
            <SortableRow key={idOf(item)} id={idOf(item)} name={nameOf(item)} fixed={fixed?.(item) ?? false}>
              {children(item)}
            </SortableRow>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ id, name, fixed, children }: { id: string; name: string; fixed: boolean; children: ReactNode }) {
  // A fixed row stays in the context so that the rows around it make room for it while another is dragged past.
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: fixed });
  return (
    <li ref={setNodeRef} className={isDragging ? 'sortable-row dragging' : 'sortable-row'} style={{ transform: CSS.Transform.toString(transform), transition }}>
      {fixed ? (
        <span className="drag-handle drag-handle-none" aria-hidden="true">
          <Icon icon={faGripVertical} />
        </span>
      ) : (
        <button type="button" className="drag-handle" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Move ${name}`}>
          <Icon icon={faGripVertical} />
        </button>
      )}
      <div className="sortable-body">{children}</div>
    </li>
  );
}

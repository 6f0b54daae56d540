import { useEffect, type ReactNode, type RefObject } from 'react';

/*
 * The parts the menus at the caret share (the `/` menu, the `:` emoji picker): the editor keeps the focus and the
 * keys, so an option is chosen by the pointer without taking the focus, and the selected one is kept in view.
 */

/** Scrolls the selected option of `list` into view as the arrows move the selection. */
export function useSelectedInView(list: RefObject<HTMLElement | null>, selected: number): void {
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [list, selected]);
}

/** An option of a menu at the caret: `id` for the listbox's active descendant; a press chooses it, the focus stays. */
export function CaretMenuOption({ id, selected, onChoose, children }: { id: string; selected: boolean; onChoose: () => void; children: ReactNode }) {
  return (
    <div
      id={id}
      className="qe-slash-option"
      role="option"
      aria-selected={selected}
      onMouseDown={(e) => {
        e.preventDefault();
        onChoose();
      }}
    >
      {children}
    </div>
  );
}

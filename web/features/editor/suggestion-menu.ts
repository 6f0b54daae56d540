import { useMemo, useRef, useState } from 'react';

/** What a menu at the caret shows while its query is open (the `/` menu, the `:` emoji picker); null when closed. */
export interface SuggestionState<T> {
  items: T[];
  query: string;
  selected: number;
  /** Where the query was typed when it last changed; `measure` finds it again as the page scrolls or resizes. */
  rect: DOMRect | null;
  measure?(): DOMRect | null;
  run(item: T): void;
}

/** Carries a suggestion plugin's state out to React, and the editor's keys in while the menu is open. */
export interface SuggestionBridge<T> {
  set(state: SuggestionState<T> | null): void;
  key(event: KeyboardEvent): boolean;
}

/**
 * The state of a menu at the caret and its bridge: the arrows move through the items (round), Enter (or Tab) takes
 * the selected one, Escape closes the menu. While it is closed every key is the editor's.
 */
export function useSuggestionMenu<T>(): [SuggestionState<T> | null, SuggestionBridge<T>] {
  const [state, setState] = useState<SuggestionState<T> | null>(null);
  const current = useRef<SuggestionState<T> | null>(null);
  const bridge = useMemo<SuggestionBridge<T>>(() => {
    const set = (next: SuggestionState<T> | null) => {
      current.current = next;
      setState(next);
    };
    const key = (event: KeyboardEvent) => {
      const open = current.current;
      if (!open) return false;
      const count = open.items.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (count === 0) return true;
        set({ ...open, selected: (open.selected + (event.key === 'ArrowDown' ? 1 : count - 1)) % count });
        return true;
      }
      if (event.key === 'Enter' || (event.key === 'Tab' && count > 0)) {
        const item = open.items[open.selected];
        if (item) open.run(item);
        return true;
      }
      if (event.key === 'Escape') {
        set(null);
        return true;
      }
      return false;
    };
    return { set, key };
  }, []);
  return [state, bridge];
}

import { useEffect, useState } from 'react';
import { Dialog } from '../../../ui/dialogs.tsx';
import { SearchList } from '../../../ui/search-list.tsx';
import type { EditorReusableContents } from '../contract.ts';
import { findReusable, type ReusableEntry } from './reusable-model.ts';

/**
 * The `/` menu's "Reusable content": the space's reusable contents, searched by title (the kit's SearchList: type to
 * filter, arrows to move, Enter or a click to pick), in a dialog. `onPick` gets the one chosen.
 */
export function ReusablePicker({ source, onPick, onClose }: { source: EditorReusableContents; onPick(entry: ReusableEntry): void; onClose(): void }) {
  const [entries, setEntries] = useState<ReusableEntry[] | null>(null);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    let current = true;
    source.list().then(
      (found) => current && setEntries(found),
      (error: unknown) => current && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [source]);
  return (
    <Dialog title="Insert reusable content" open onOpenChange={(open) => !open && onClose()}>
      <SearchList
        className="qe-reusable-picker"
        label="Search reusable content"
        placeholder="Search by title"
        listLabel="Reusable contents"
        search={(query) => findReusable(entries ?? [], query)}
        optionKey={(entry) => entry.id}
        renderOption={(entry) => entry.title}
        onPick={onPick}
        empty={entries ? (query) => (entries.length === 0 ? 'This space has no reusable content yet: select blocks and choose “Create reusable content”.' : `No reusable content called “${query}”`) : undefined}
      >
        {failure && <p role="alert">{failure}</p>}
        {!failure && entries === null && <p aria-busy="true">Loading the space’s reusable content…</p>}
      </SearchList>
    </Dialog>
  );
}
